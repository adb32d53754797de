import mammoth from 'mammoth';
import { htmlToMarkdown } from './html-to-markdown.js';
import { documentTitle } from './parse-markdown.js';
import type { ParsedSource } from './parsed-source.js';

/** A Word document as markdown: mammoth maps its heading styles to HTML headings, turndown to `#`. */
export async function parseDocx(bytes: Buffer, file: string): Promise<ParsedSource> {
  const { value: html } = await mammoth.convertToHtml({ buffer: bytes });
  const markdown = htmlToMarkdown(html);
  return {
    kind: 'document',
    title: documentTitle(markdown, file),
    format: 'markdown',
    pages: [{ text: markdown }],
  };
}
