import path from 'node:path';
import type { ParsedSource } from './parsed-source.js';

/** The first `# heading` of a markdown text, else the file name without its extension. */
export function documentTitle(markdown: string, file: string): string {
  const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(markdown);
  return heading?.[1] ?? path.basename(file, path.extname(file));
}

/** Markdown as it is: one page, headings kept for the hierarchical chunker. */
export function parseMarkdown(markdown: string, file: string): ParsedSource {
  return {
    kind: 'document',
    title: documentTitle(markdown, file),
    format: 'markdown',
    pages: [{ text: markdown }],
  };
}

/** Plain text: one page without headings. */
export function parseText(text: string, file: string): ParsedSource {
  return {
    kind: 'document',
    title: path.basename(file, path.extname(file)),
    format: 'text',
    pages: [{ text }],
  };
}
