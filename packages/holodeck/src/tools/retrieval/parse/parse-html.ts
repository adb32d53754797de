import { htmlToMarkdown } from './html-to-markdown.js';
import { documentTitle } from './parse-markdown.js';
import type { ParsedSource } from './parsed-source.js';

/** HTML converted to markdown with turndown; the title is the `<title>`, else the first heading. */
export function parseHtml(html: string, file: string): ParsedSource {
  const markdown = htmlToMarkdown(html);
  const title = /<title[^>]*>([^<]+)<\/title>/i.exec(html)?.[1]?.trim();
  return {
    kind: 'document',
    title: title || documentTitle(markdown, file),
    format: 'markdown',
    pages: [{ text: markdown }],
  };
}
