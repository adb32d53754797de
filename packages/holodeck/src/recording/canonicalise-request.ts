import { normaliseRequestBody } from './normalise-request.js';
import type { CanonicalRequest } from './recording-file-schema.js';
import { isJsonObject, type JsonValue, parseJson } from './stable-json.js';

/** A request as a client sent it (headers are never part of a recording: they carry the keys). */
export interface OutgoingRequest {
  method: string;
  url: string;
  body: string;
}

/**
 * How secrets are removed: HoloDeck's one redaction of saved runs (runner/report/redact-agent-config),
 * handed in by the command, so this layer does not import the runner's.
 */
export interface Redaction {
  /** The text with every secret value replaced. */
  text(text: string): string;
  /** Whether a field or query parameter of this name holds a secret (`key`, `api_key`, `token`, …). */
  isSecretName(name: string): boolean;
}

/** Every string of a value with the secrets replaced. */
export function redactValue(value: JsonValue, redaction: Redaction): JsonValue {
  if (typeof value === 'string') return redaction.text(value);
  if (Array.isArray(value)) return value.map((entry) => redactValue(entry, redaction));
  if (!isJsonObject(value)) return value;
  const result: { [key: string]: JsonValue } = {};
  for (const [key, entry] of Object.entries(value)) result[key] = redactValue(entry, redaction);
  return result;
}

/** Path and query without query parameters that hold credentials (`?key=`, `api_key=`, `token=`). */
function pathOf(url: string, redaction: Redaction): string {
  const parsed = new URL(url);
  for (const name of [...parsed.searchParams.keys()])
    if (redaction.isSecretName(name)) parsed.searchParams.delete(name);
  const query = parsed.searchParams.toString();
  return `${parsed.pathname}${query ? `?${query}` : ''}`;
}

/** The canonical form a request is matched on: method, path, normalised body, secrets removed. */
export function canonicaliseRequest(request: OutgoingRequest, redaction: Redaction): CanonicalRequest {
  const parsed = request.body ? parseJson(request.body) : null;
  const body = parsed === undefined ? request.body : normaliseRequestBody(parsed ?? null);
  return {
    method: request.method.toUpperCase(),
    path: pathOf(request.url, redaction),
    body: redactValue(body, redaction),
  };
}
