/** One segment of a field path: a mapping key or a list index. */
export type PathSegment = string | number;

/** A field path inside a YAML document, e.g. `['tools', 2, 'url']` or `['rules', 0, 'condition']`. */
export type FieldPath = readonly PathSegment[];

/**
 * A problem tied to a field path but not yet to a line: the loader locates it in the YAML
 * document at the end, so every check can stay ignorant of line numbers.
 */
export interface FieldIssue {
  path: FieldPath;
  message: string;
  hint?: string;
  /** `key` points at the key itself (unknown keys, duplicates); `value` (default) at its value. */
  anchor?: 'key' | 'value';
  /** Set when the problem is in another file (e.g. a `.env` file); then no line is looked up. */
  file?: string;
  /**
   * A position known up front (the second of two duplicate keys, a CEL error inside a condition);
   * wins over the path lookup.
   */
  position?: { line: number; column: number };
}

/** Formats a path as users write it: `claude.bash.enabled`, `tools[2].url`; `''` for the root. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/** `in claude.bash` or `at the top level`, for messages about a key of the mapping at `path`. */
export function describeParent(path: readonly PropertyKey[]): string {
  return path.length === 0 ? 'at the top level' : `in ${formatFieldPath(path)}`;
}
