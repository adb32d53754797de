import mammoth from 'mammoth';
import { htmlToMarkdown } from './html-to-markdown.js';
import { documentTitle } from './parse-markdown.js';
import type { ParsedSource } from './parsed-source.js';

/** Marks the paragraph of Word's Title style, which mammoth would otherwise make body text. */
const TITLE_MARK = 'holodeck-docx-title';

/**
 * A Word document as markdown: mammoth maps its heading styles to HTML headings, turndown to `#`
 * (tables to Markdown tables). The document's title is its Title-style paragraph, else its first
 * heading, else the file name.
 */
export async function parseDocx(bytes: Buffer, file: string): Promise<ParsedSource> {
  const { value: html } = await mammoth.convertToHtml(
    { buffer: bytes },
    { styleMap: [`p[style-name='Title'] => p.${TITLE_MARK}:fresh`] },
  );
  const titleMatch = new RegExp(`<p class="${TITLE_MARK}">([\\s\\S]*?)</p>`).exec(html);
  const title = titleMatch?.[1]?.replace(/<[^>]+>/g, '').trim();
  const markdown = htmlToMarkdown(
    html.replace(new RegExp(`<p class="${TITLE_MARK}">[\\s\\S]*?</p>`, 'g'), ''),
  );
  return {
    kind: 'document',
    title: title || documentTitle(markdown, file),
    format: 'markdown',
    pages: [{ text: markdown }],
  };
}
