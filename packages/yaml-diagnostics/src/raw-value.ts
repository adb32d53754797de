import type { PathSegment } from './field-issue.js';

/** Narrows parsed YAML to a mapping (not a list, not null). A type guard instead of a cast: the data crossed a boundary. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the value at `path` in parsed YAML, or `undefined` when any step is missing. */
export function getAtPath(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === 'number') current = current[segment];
    else if (isRecord(current) && typeof segment === 'string') current = current[segment];
    else return undefined;
  }
  return current;
}

/** Converts a zod path (which may hold symbols) to our path segments. */
export function toFieldPath(path: readonly PropertyKey[]): PathSegment[] {
  return path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
}

/** Describes a parsed YAML value for a message: `the string "yes"`, `the number 3`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `the ${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return 'a list';
  if (isRecord(value)) return 'a mapping';
  return `a value of type ${typeof value}`;
}

/** A shorter describeValue for terse reports: `"text"`, `42`, `a list`, `a mapping`, `nothing`. */
export function describeValueBriefly(value: unknown): string {
  if (value === undefined || value === null) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return String(value);
}
