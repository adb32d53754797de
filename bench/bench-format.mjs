// @ts-check
// Shared by the benchmarks: statistics and plain-text tables.

/** Median of a list of numbers (undefined for an empty list). */
export function median(values) {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[Math.floor(middle)];
}

/** A plain-text table: the first column left-aligned, the others right-aligned. */
export function table(headers, rows) {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => String(row[column]).length)),
  );
  const cellText = (cell, column) =>
    column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]);
  const line = (cells) => cells.map(cellText).join('  ').trimEnd();
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * A parseArgs value as an integer ≥ min; throws an Error of `ErrorClass` naming the flag otherwise.
 * @param {Record<string, unknown>} values
 * @param {string} name
 * @param {number} min
 * @param {new (message: string) => Error} [ErrorClass]
 * @returns {number}
 */
export function integerOption(values, name, min, ErrorClass = Error) {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < min) throw new ErrorClass(`--${name} must be an integer >= ${min}`);
  return value;
}

/**
 * The entry of a map the script filled itself; a missing key is a bug in the script, said so.
 * @template K, V
 * @param {Map<K, V>} map
 * @param {K} key
 * @returns {V}
 */
export function entryOf(map, key) {
  const value = map.get(key);
  if (value === undefined) throw new Error(`bench: no entry for ${String(key)} (a bug in the script)`);
  return value;
}
