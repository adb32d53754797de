import path from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import type { ParsedSource } from './parsed-source.js';

/** A PDF's text page by page (unpdf's bundled pdf.js; no download), so each chunk cites its page. */
export async function parsePdf(bytes: Uint8Array, file: string): Promise<ParsedSource> {
  const pdf = await getDocumentProxy(bytes);
  const { text } = await extractText(pdf, { mergePages: false });
  return {
    kind: 'document',
    title: path.basename(file, path.extname(file)),
    format: 'text',
    pages: text
      .map((pageText, index) => ({ page: index + 1, text: pageText }))
      .filter((page) => page.text.trim()),
  };
}
