/** A JSON value as recordings hold it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Whether a value is a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value with every object's keys sorted, recursively: one spelling for one value. */
export function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isJsonObject(value)) return value;
  const sorted: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value).sort()) {
    const entry = value[key];
    if (entry !== undefined) sorted[key] = sortKeys(entry);
  }
  return sorted;
}

/**
 * JSON with sorted keys: the same value always gives the same bytes, so a re-recorded file that
 * did not change is byte-identical. `indent` 2 for files a reviewer reads, 0 for comparisons.
 */
export function stableStringify(value: JsonValue, indent = 0): string {
  return JSON.stringify(sortKeys(value), null, indent || undefined);
}

/** Parses JSON text into a JsonValue, or undefined when it is not JSON. */
export function parseJson(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}
