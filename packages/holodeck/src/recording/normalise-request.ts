import { isJsonObject, type JsonValue } from './stable-json.js';

/**
 * Normalisations of a request body before it is matched: what varies between two runs of the same
 * suite and is not the agent's behaviour. Each was found by running the real Claude CLI (2.1.332)
 * twice against the fake Anthropic server and diffing the requests; docs/recording-format.md
 * lists them. Headers are not part of the canonical form at all.
 */

/** The CLI's environment block names the working directory: every occurrence becomes this. */
export const CWD_PLACEHOLDER = '<cwd>';

const WORKING_DIRECTORY = /Primary working directory: ([^\n]+)/;
const ENVIRONMENT_LINES: [RegExp, string][] = [
  [/(\n - Platform: )[^\n]+/g, '$1<platform>'],
  [/(\n - Shell: )[^\n]+/g, '$1<shell>'],
  [/(\n - OS Version: )[^\n]+/g, '$1<os-version>'],
  [/(Today's date is )\d{4}-\d{2}-\d{2}/g, '$1<date>'],
];
/** The CLI's first system block: its build and entry point, not the agent's prompt. */
const BILLING_HEADER = 'x-anthropic-billing-header:';

/** Body fields dropped: `metadata.user_id` holds a device id (per HOME) and the session id. */
const DROPPED_FIELDS = new Set(['metadata']);

function mapStrings(value: JsonValue, map: (text: string) => string): JsonValue {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((entry) => mapStrings(entry, map));
  if (!isJsonObject(value)) return value;
  const result: { [key: string]: JsonValue } = {};
  for (const [key, entry] of Object.entries(value)) result[key] = mapStrings(entry, map);
  return result;
}

function withoutCacheControl(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(withoutCacheControl);
  if (!isJsonObject(value)) return value;
  const result: { [key: string]: JsonValue } = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key !== 'cache_control') result[key] = withoutCacheControl(entry);
  }
  return result;
}

function findWorkingDirectory(value: JsonValue): string | undefined {
  if (typeof value === 'string') return WORKING_DIRECTORY.exec(value)?.[1]?.trim();
  const entries = Array.isArray(value) ? value : isJsonObject(value) ? Object.values(value) : [];
  for (const entry of entries) {
    const found = findWorkingDirectory(entry);
    if (found) return found;
  }
  return undefined;
}

function withoutBillingHeader(system: JsonValue): JsonValue {
  if (!Array.isArray(system)) return system;
  return system.filter(
    (block) =>
      !(isJsonObject(block) && typeof block.text === 'string' && block.text.startsWith(BILLING_HEADER)),
  );
}

/** The body of a request as it is matched: the normalisations above applied; other bodies unchanged. */
export function normaliseRequestBody(body: JsonValue, extraPaths: readonly string[] = []): JsonValue {
  if (!isJsonObject(body)) return body;
  let result: JsonValue = Object.fromEntries(
    Object.entries(body).filter(([key]) => !DROPPED_FIELDS.has(key)),
  );
  if (isJsonObject(result) && result.system !== undefined)
    result = { ...result, system: withoutBillingHeader(result.system) };
  result = withoutCacheControl(result);
  const cwd = findWorkingDirectory(result);
  // Longest first, so a folder inside another is replaced whole.
  const paths = [...new Set([...(cwd ? [cwd] : []), ...extraPaths])]
    .filter((entry) => entry.length > 1)
    .sort((a, b) => b.length - a.length);
  return mapStrings(result, (text) => {
    let mapped = text;
    for (const entry of paths) mapped = mapped.split(entry).join(CWD_PLACEHOLDER);
    for (const [pattern, replacement] of ENVIRONMENT_LINES) mapped = mapped.replace(pattern, replacement);
    return mapped;
  });
}
