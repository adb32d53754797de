import { neutralise } from './neutralise-text.js';

/** Colours one cell after padding, so colour codes never skew the column widths. */
export type PaintCell = (column: number, text: string, padded: string) => string;

/**
 * Left-aligned columns two spaces apart, a header row first, one line per row, no trailing spaces.
 * Widths count UTF-16 code units, which is exact for the ids, timestamps and names shown here.
 */
export function formatTable(
  headers: readonly string[],
  unsafeRows: readonly (readonly string[])[],
  paint: PaintCell = (_column, _text, padded) => padded,
): string {
  // Every cell on one line, without control or escape characters (see neutralise-text.ts).
  const rows = unsafeRows.map((row) => row.map((value) => neutralise(value)));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[], paintCells: boolean) =>
    cells
      .map((cell, column) => {
        const last = column === cells.length - 1;
        const padded = last ? cell : cell.padEnd(widths[column] ?? 0);
        return paintCells ? paint(column, cell, padded) : padded;
      })
      .join('  ')
      .trimEnd();
  return `${[line(headers, false), ...rows.map((row) => line(row, true))].join('\n')}\n`;
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
