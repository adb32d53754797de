import { neutralise } from './neutralise-text.js';
import { type Span, type StyledLine, span, type Tone } from './styled-text.js';

/** The tone of one body cell (headers are never toned). */
export type ToneOfCell = (column: number, text: string) => Tone | undefined;

/**
 * Left-aligned columns two spaces apart, a header row first, one line per row, no trailing spaces.
 * Widths count UTF-16 code units, which is exact for the ids, timestamps and names shown here. A
 * toned cell's padding stays outside its span, so colour codes never skew the column widths.
 */
export function formatTable(
  headers: readonly string[],
  unsafeRows: readonly (readonly string[])[],
  toneOf: ToneOfCell = () => undefined,
): StyledLine[] {
  // Every cell on one line, without control or escape characters (see neutralise-text.ts).
  const rows = unsafeRows.map((row) => row.map((value) => neutralise(value)));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const tableLine = (cells: readonly string[], toned: boolean): StyledLine => {
    const spans: Span[] = [];
    cells.forEach((cell, column) => {
      const last = column === cells.length - 1;
      if (column > 0) spans.push(span('  '));
      spans.push(span(cell, toned ? toneOf(column, cell) : undefined));
      if (!last) spans.push(span(' '.repeat((widths[column] ?? 0) - cell.length)));
    });
    return trimEnd(spans);
  };
  return [tableLine(headers, false), ...rows.map((row) => tableLine(row, true))];
}

/** The line without trailing spaces (dropping spans left empty). */
function trimEnd(spans: Span[]): StyledLine {
  while (spans.length > 0) {
    const last = spans[spans.length - 1] as Span;
    const text = last.text.trimEnd();
    if (text !== '') {
      spans[spans.length - 1] = span(text, last.tone);
      break;
    }
    spans.pop();
  }
  return spans;
}

/** A value as one line of compact JSON (`undefined` when there is none), control characters escaped. */
export function formatInlineJson(value: unknown): string {
  return neutralise(JSON.stringify(value) ?? 'undefined');
}

/** Machine output: pretty JSON with a final newline. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** `-` for an absent or empty cell. */
export function cell(value: string | number | undefined): string {
  return value === undefined || value === '' ? '-' : String(value);
}
