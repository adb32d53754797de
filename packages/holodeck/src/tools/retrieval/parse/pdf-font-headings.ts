import type { OutlineEntry } from './pdf-outline-headings.js';

/** A line of a PDF page and the font size (points) of its largest text. */
export interface SizedLine {
  text: string;
  size: number;
}

/** How much larger than body text a line must be to be a heading. */
const HEADING_RATIO = 1.15;
/** A heading is one short line, not a paragraph set large. */
const HEADING_MAX_CHARS = 120;

const rounded = (size: number) => Math.round(size * 2) / 2;

/**
 * Headings of a PDF without an outline, from font sizes: the body size is the one most of the
 * text is set in; a short line set at least 15% larger is a heading, its depth the rank of its
 * size among the heading sizes (largest = 1). In page order, as an outline would give them, for
 * headingsFromOutline. [] when no line stands out (a PDF of one size stays plain text).
 */
export function headingsFromFontSizes(
  pages: readonly { page: number; lines: readonly SizedLine[] }[],
): OutlineEntry[] {
  const characters = new Map<number, number>();
  for (const { lines } of pages)
    for (const line of lines)
      characters.set(rounded(line.size), (characters.get(rounded(line.size)) ?? 0) + line.text.length);
  let body = 0;
  let most = -1;
  for (const [size, count] of characters)
    if (count > most || (count === most && size < body)) [body, most] = [size, count];
  const isHeading = (line: SizedLine) => {
    const text = line.text.trim();
    return (
      rounded(line.size) >= body * HEADING_RATIO &&
      text.length > 0 &&
      text.length <= HEADING_MAX_CHARS &&
      /\p{L}/u.test(text)
    );
  };
  const sizes = [
    ...new Set(pages.flatMap(({ lines }) => lines.filter(isHeading).map((line) => rounded(line.size)))),
  ].sort((a, b) => b - a);
  return pages.flatMap(({ page, lines }) =>
    lines.filter(isHeading).map((line) => ({
      title: line.text.trim(),
      depth: Math.min(6, sizes.indexOf(rounded(line.size)) + 1),
      page,
    })),
  );
}
