import type {
  HistoryField,
  HistoryFilter,
  HistoryFilterValue,
  HistoryKind,
} from '../../model/action-history.js';

const FIELD_PATH = /^(context|input|output)((?:\.[A-Za-z_][A-Za-z0-9_]*){1,4})$/;

/** What each kind of record has: its JSON columns and its other filter keys. */
const RECORD_SHAPES = {
  action: { columns: ['context', 'input'], keys: ['tool', 'released'], noun: 'an action' },
  evidence: { columns: ['input', 'output'], keys: ['error'], noun: 'evidence' },
} as const;

/** The keys a filter may use, as messages name them. */
export const FILTER_KEYS_HINT =
  "a filter maps context.<key>, input.<key>, tool or released to a value, e.g. {'context.customer_id': action.context.customer_id}";

/** The same, for filters of history.evidence calls. */
export const EVIDENCE_FILTER_KEYS_HINT =
  "a filter of history.evidence maps input.<key>, output.<key> or error to a value, e.g. {'input.customer_id': action.context.customer_id}";

/** The hint naming the filter keys of `kind`. */
export function filterKeysHint(kind: HistoryKind): string {
  return kind === 'action' ? FILTER_KEYS_HINT : EVIDENCE_FILTER_KEYS_HINT;
}

/** `context.amount` → the field of an action (`output.x` of evidence), or why it is not one. */
export function parseHistoryField(path: string, kind: HistoryKind = 'action'): HistoryField | string {
  const shape = RECORD_SHAPES[kind];
  const match = FIELD_PATH.exec(path);
  const column = shape.columns.find((name) => name === match?.[1]);
  if (match === null || column === undefined) {
    const [first, second] = shape.columns;
    return `${JSON.stringify(path)} is not a field of ${shape.noun}: write ${first}.<key> or ${second}.<key> (up to 4 keys, letters, digits and _)`;
  }
  return { column, keys: (match[2] ?? '').slice(1).split('.') };
}

/** Whether `key` is a filter key (without checking its value). Returns the problem, or undefined. */
export function checkFilterKey(key: string, kind: HistoryKind = 'action'): string | undefined {
  if (RECORD_SHAPES[kind].keys.some((name) => name === key)) return undefined;
  const field = parseHistoryField(key, kind);
  return typeof field === 'string'
    ? `unknown filter key ${JSON.stringify(key)}: ${filterKeysHint(kind)}`
    : undefined;
}

/** A filter as a condition evaluated it (a CEL map: a plain object or a Map) → its entries, or throws. */
export function parseHistoryFilter(value: unknown, kind: HistoryKind = 'action'): HistoryFilter[] {
  if (value === undefined) return [];
  const entries: [unknown, unknown][] =
    value instanceof Map
      ? [...value.entries()]
      : typeof value === 'object' && value !== null
        ? Object.entries(value)
        : [];
  const filters = entries.map(([key, entry]) => filterEntry(key, entry, kind));
  return filters.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

function filterEntry(key: unknown, value: unknown, kind: HistoryKind): HistoryFilter {
  if (typeof key !== 'string') throw new Error(`a history filter key must be a string; got ${String(key)}`);
  const problem = checkFilterKey(key, kind);
  if (problem !== undefined) throw new Error(problem);
  if (key === 'tool') {
    if (typeof value !== 'string')
      throw new Error(`history filter "tool" must be a string; got ${describe(value)}`);
    return { kind: 'tool', value };
  }
  if (key === 'released' || key === 'error') {
    if (typeof value !== 'boolean')
      throw new Error(`history filter "${key}" must be true or false; got ${describe(value)}`);
    return { kind: key, value };
  }
  const field = parseHistoryField(key, kind);
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
