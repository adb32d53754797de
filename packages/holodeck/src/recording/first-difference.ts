import { isJsonObject, type JsonValue } from './stable-json.js';

/** Where two canonical requests first differ, and both values there. */
export interface Difference {
  /** e.g. `messages[3].content[0].text`; `` for the whole value. */
  path: string;
  /** Depth-first position of the difference: a later one means a longer common prefix. */
  position: number;
  actual: JsonValue | undefined;
  recorded: JsonValue | undefined;
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
    ? path
      ? `${path}.${key}`
      : key
    : `${path}[${JSON.stringify(key)}]`;
}

/** The first field (depth first, keys in sorted order) where `actual` and `recorded` differ; undefined when equal. */
export function firstDifference(actual: JsonValue, recorded: JsonValue): Difference | undefined {
  let position = 0;
  const walk = (a: JsonValue | undefined, b: JsonValue | undefined, path: string): Difference | undefined => {
    position++;
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let index = 0; index < Math.max(a.length, b.length); index++) {
        const found = walk(a[index], b[index], join(path, index));
        if (found) return found;
      }
      return undefined;
    }
    if (isJsonObject(a) && isJsonObject(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const key of keys) {
        const found = walk(a[key], b[key], join(path, key));
        if (found) return found;
      }
      return undefined;
    }
    if (a === b) return undefined;
    return { path, position, actual: a, recorded: b };
  };
  return walk(actual, recorded, '');
}

const SHORT = 60;
const CONTEXT = 24;

function show(value: JsonValue | undefined): string {
  if (value === undefined) return '(absent)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Both values shortened around where they first differ, quoted: `"…ab X cd…" vs "…ab Y cd…"`. */
export function describeValues(actual: JsonValue | undefined, recorded: JsonValue | undefined): string {
  const a = show(actual);
  const b = show(recorded);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  const cut = (text: string) => {
    if (text.length <= SHORT) return text;
    const from = Math.max(0, start - CONTEXT);
    const to = Math.min(text.length, from + SHORT);
    return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
  };
  const quote = (text: string, raw: JsonValue | undefined) =>
    raw === undefined ? text : JSON.stringify(cut(text));
  return `${quote(a, actual)} vs ${quote(b, recorded)}`;
}
