/** A field path inside a YAML document, e.g. `['rules', 0, 'condition']`. */
export type FieldPath = readonly (string | number)[];

/**
 * A problem tied to a field path but not yet to a line: the loader locates it in the document at
 * the end, so the checks stay ignorant of line numbers.
 */
export interface FieldIssue {
  path: FieldPath;
  message: string;
  hint?: string;
  /** `key` points at the key itself (unknown and duplicate keys); `value` (default) at its value. */
  anchor?: 'key' | 'value';
  /** A position known up front (a CEL error inside a condition); wins over the path lookup. */
  position?: { line: number; column: number };
}

/** Formats a path as users write it: `rules[0].condition`; `''` for the root. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/** `in rules[0]` or `at the top level`, for messages about a key of the mapping at `path`. */
export function describeParent(path: readonly PropertyKey[]): string {
  return path.length === 0 ? 'at the top level' : `in ${formatFieldPath(path)}`;
}

/** True for a plain mapping (not a list, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `path` in plain data, or undefined. */
export function getAtPath(data: unknown, path: readonly PropertyKey[]): unknown {
  let current = data;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === 'number') current = current[segment];
    else if (isRecord(current) && typeof segment === 'string') current = current[segment];
    else return undefined;
  }
  return current;
}

/** How a value reads in a message: `"text"`, `42`, `a list`, `a mapping`, `nothing`. */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return String(value);
}
