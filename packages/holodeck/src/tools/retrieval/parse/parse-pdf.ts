import path from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import type { ParsedSource } from './parsed-source.js';
import { headingsFromFontSizes, type SizedLine } from './pdf-font-headings.js';
import { headingsFromOutline, type OutlineEntry } from './pdf-outline-headings.js';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
type OutlineItems = Awaited<ReturnType<PdfDocument['getOutline']>>;

/** Words hyphenated across a line end joined again (`manip-\nulation` → `manipulation`). */
export function joinHyphenatedWords(text: string): string {
  return text.replace(/(\p{L})-\n(\p{Ll})/gu, '$1$2');
}

/** The outline (bookmarks) flattened, each entry with its depth and 1-based page; [] without one. */
async function outlineOf(pdf: PdfDocument): Promise<OutlineEntry[]> {
  let items: OutlineItems;
  try {
    items = await pdf.getOutline();
  } catch {
    return [];
  }
  const entries: OutlineEntry[] = [];
  const walk = async (list: OutlineItems, depth: number) => {
    for (const item of list ?? []) {
      try {
        const dest = typeof item.dest === 'string' ? await pdf.getDestination(item.dest) : item.dest;
        const ref = dest?.[0];
        if (ref && typeof ref === 'object')
          entries.push({ title: item.title.trim(), depth, page: (await pdf.getPageIndex(ref)) + 1 });
      } catch {
        // An entry pointing nowhere (a broken bookmark) gives no heading.
      }
      await walk(item.items, depth + 1);
    }
  };
  await walk(items, 1);
  return entries;
}

/** Each page's lines with the font size of their largest text (pdf.js text items grouped by line). */
async function sizedLinesOf(pdf: PdfDocument): Promise<{ page: number; lines: SizedLine[] }[]> {
  const pages: { page: number; lines: SizedLine[] }[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const content = await (await pdf.getPage(number)).getTextContent();
    const lines: SizedLine[] = [];
    let current: SizedLine = { text: '', size: 0 };
    let y: number | undefined;
    const end = () => {
      if (current.text.trim()) lines.push(current);
      current = { text: '', size: 0 };
    };
    for (const item of content.items) {
      if (!('str' in item)) continue;
      const itemY = item.transform[5] as number;
      if (y !== undefined && itemY !== y && current.text) end();
      y = itemY;
      current.text += item.str;
      if (item.str.trim())
        current.size = Math.max(
          current.size,
          Math.hypot(item.transform[2] as number, item.transform[3] as number),
        );
      if (item.hasEOL) end();
    }
    end();
    pages.push({ page: number, lines });
  }
  return pages;
}

/**
 * A PDF's text page by page (unpdf's bundled pdf.js; no download), so each chunk cites its page;
 * words hyphenated across lines are joined. With an outline (bookmarks), each page becomes
 * markdown whose headings are the outline's entries (pdf-outline-headings.ts), so chunks carry
 * heading paths; without one, the lines set larger than the body text are the headings
 * (pdf-font-headings.ts); with neither, plain text. pdf.js's console warnings are off.
 */
export async function parsePdf(bytes: Uint8Array, file: string): Promise<ParsedSource> {
  // verbosity 0: pdf.js prints its warnings ("Warning: Indexing all PDF objects") on the console
  // otherwise, in the middle of holodeck's output; a PDF it cannot read still throws.
  const pdf = await getDocumentProxy(bytes, { verbosity: 0 });
  const { text } = await extractText(pdf, { mergePages: false });
  const pages = text.map((pageText, index) => ({ page: index + 1, text: joinHyphenatedWords(pageText) }));
  let outline = await outlineOf(pdf);
  if (!outline.length) outline = headingsFromFontSizes(await sizedLinesOf(pdf));
  const title = path.basename(file, path.extname(file));
  if (!outline.length)
    return { kind: 'document', title, format: 'text', pages: pages.filter((page) => page.text.trim()) };
  return {
    kind: 'document',
    title,
    format: 'markdown',
    pages: headingsFromOutline(pages, outline).filter((page) => page.text.trim()),
  };
}
