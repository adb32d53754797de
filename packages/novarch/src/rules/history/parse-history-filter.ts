import type { HistoryField, HistoryFilter, HistoryFilterValue } from '../../model/action-history.js';

const FIELD_PATH = /^(context|input)((?:\.[A-Za-z_][A-Za-z0-9_]*){1,4})$/;

/** The keys a filter may use, as messages name them. */
export const FILTER_KEYS_HINT =
  "a filter maps context.<key>, input.<key>, tool or released to a value, e.g. {'context.customer_id': action.context.customer_id}";

/** `context.amount` → the field, or why it is not one. */
export function parseHistoryField(path: string): HistoryField | string {
  const match = FIELD_PATH.exec(path);
  const column = match?.[1];
  if (match === null || (column !== 'context' && column !== 'input')) {
    return `${JSON.stringify(path)} is not a field of an action: write context.<key> or input.<key> (up to 4 keys, letters, digits and _)`;
  }
  return { column, keys: (match[2] ?? '').slice(1).split('.') };
}

/** Whether `key` is a filter key (without checking its value). Returns the problem, or undefined. */
export function checkFilterKey(key: string): string | undefined {
  if (key === 'tool' || key === 'released') return undefined;
  const field = parseHistoryField(key);
  return typeof field === 'string'
    ? `unknown filter key ${JSON.stringify(key)}: ${FILTER_KEYS_HINT}`
    : undefined;
}

/** A filter as a condition evaluated it (a CEL map: a plain object or a Map) → its entries, or throws. */
export function parseHistoryFilter(value: unknown): HistoryFilter[] {
  if (value === undefined) return [];
  const entries: [unknown, unknown][] =
    value instanceof Map
      ? [...value.entries()]
      : typeof value === 'object' && value !== null
        ? Object.entries(value)
        : [];
  const filters = entries.map(([key, entry]) => filterEntry(key, entry));
  return filters.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

function filterEntry(key: unknown, value: unknown): HistoryFilter {
  if (typeof key !== 'string') throw new Error(`a history filter key must be a string; got ${String(key)}`);
  const problem = checkFilterKey(key);
  if (problem !== undefined) throw new Error(problem);
  if (key === 'tool') {
    if (typeof value !== 'string')
      throw new Error(`history filter "tool" must be a string; got ${describe(value)}`);
    return { kind: 'tool', value };
  }
  if (key === 'released') {
    if (typeof value !== 'boolean')
      throw new Error(`history filter "released" must be true or false; got ${describe(value)}`);
    return { kind: 'released', value };
  }
  const field = parseHistoryField(key);
  if (typeof field === 'string') throw new Error(field);
  return { kind: 'field', field, value: filterValue(key, value) };
}

function filterValue(key: string, value: unknown): HistoryFilterValue {
  if (typeof value === 'bigint') {
    const number = Number(value);
    if (!Number.isSafeInteger(number))
      throw new Error(`history filter ${JSON.stringify(key)}: ${value} is too large`);
    return number;
  }
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new Error(`history filter ${JSON.stringify(key)} must be a finite number; got ${value}`);
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  throw new Error(
    `history filter ${JSON.stringify(key)} must be a string, number, bool or null; got ${describe(value)}`,
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === 'object' ? 'a map' : `${typeof value} ${String(value)}`;
}
