import { createHash } from 'node:crypto';
import type { HistoryFilterValue } from '../model/action-history.js';

/**
 * What `history_fields` (migration 12) indexes of one stored action or evidence: the rows history
 * conditions find past records by, without reading the JSON of every record in the window.
 *
 * - one row with path `''` per record (unfiltered counts and sums count it);
 * - one row per scalar leaf (string, number, bool; not null, which filters never look up) of the
 *   stored JSON columns, at paths a
 *   filter can name: `context.a.b`, `input.a`, `output.a` (objects only, 1 to `MAX_FIELD_DEPTH`
 *   keys that are identifiers); values as `JSON.stringify` writes them, or `#` and their SHA-256
 *   when longer than `MAX_INDEXED_VALUE_CHARS` (JSON text never starts with `#`);
 * - `tool` (actions) and `error` (evidence), the other filter keys that never change;
 * - when a record has more than `MAX_INDEXED_FIELDS` leaves, none of them but one row with path
 *   `'*'`: queries then read that record's JSON (rare, and exact either way).
 */
export const MAX_INDEXED_FIELDS = 64;
export const MAX_FIELD_DEPTH = 4;
export const MAX_INDEXED_VALUE_CHARS = 200;

/** The path of the row every record has, and of the marker of a record whose leaves were too many. */
export const RECORD_PATH = '';
export const OVERFLOW_PATH = '*';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One indexed field of a record: its path, its value's key and, for numbers, the number. */
export interface HistoryFieldEntry {
  path: string;
  value: string;
  number: number | null;
}

/** The key a value is indexed under (and a filter value looked up by). */
export function indexedValue(value: HistoryFilterValue): string {
  const text = JSON.stringify(value);
  return text.length > MAX_INDEXED_VALUE_CHARS
    ? `#${createHash('sha256').update(text).digest('base64url')}`
    : text;
}

/**
 * The indexed fields of a record whose JSON columns are `columns` (column name → stored JSON text
 * or NULL) and whose fixed filter keys are `fixed` (`tool`, `error`).
 */
export function historyFieldEntries(
  columns: Readonly<Record<string, string | null>>,
  fixed: Readonly<Record<string, HistoryFilterValue>>,
): HistoryFieldEntry[] {
  const entries: HistoryFieldEntry[] = [{ path: RECORD_PATH, value: '', number: null }];
  for (const [key, value] of Object.entries(fixed))
    entries.push({ path: key, value: indexedValue(value), number: null });
  const leaves: HistoryFieldEntry[] = [];
  for (const [column, text] of Object.entries(columns)) {
    if (text === null) continue;
    if (!collectLeaves(JSON.parse(text), column, 0, leaves)) {
      entries.push({ path: OVERFLOW_PATH, value: '', number: null });
      return entries;
    }
  }
  return [...entries, ...leaves];
}

/** Adds the leaves under `value` at `path`; false once there are more than the bound. */
function collectLeaves(value: unknown, path: string, depth: number, leaves: HistoryFieldEntry[]): boolean {
  if (value === null) return true;
  if (depth > 0 && isScalar(value)) {
    if (leaves.length >= MAX_INDEXED_FIELDS) return false;
    leaves.push({ path, value: indexedValue(value), number: typeof value === 'number' ? value : null });
    return true;
  }
  if (depth >= MAX_FIELD_DEPTH || typeof value !== 'object' || value === null || Array.isArray(value))
    return true;
  for (const [key, child] of Object.entries(value)) {
    if (!IDENTIFIER.test(key)) continue;
    if (!collectLeaves(child, `${path}.${key}`, depth + 1, leaves)) return false;
  }
  return true;
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
