import { isSecretField, redactText } from '../runner/report/redact-agent-config.js';
import { normaliseRequestBody } from './normalise-request.js';
import type { CanonicalRequest } from './recording-file-schema.js';
import { isJsonObject, type JsonValue, parseJson } from './stable-json.js';

/** A request as a client sent it (headers are never part of a recording: they carry the keys). */
export interface OutgoingRequest {
  method: string;
  url: string;
  body: string;
}

/** Every string of a value with the secrets replaced. */
export function redactValue(value: JsonValue, secrets: readonly string[]): JsonValue {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((entry) => redactValue(entry, secrets));
  if (!isJsonObject(value)) return value;
  const result: { [key: string]: JsonValue } = {};
  for (const [key, entry] of Object.entries(value)) result[key] = redactValue(entry, secrets);
  return result;
}

/** Path and query without query parameters that hold credentials (`?key=`, `api_key=`, `token=`). */
function pathOf(url: string): string {
  const parsed = new URL(url);
  for (const name of [...parsed.searchParams.keys()])
    if (isSecretField(name)) parsed.searchParams.delete(name);
  const query = parsed.searchParams.toString();
  return `${parsed.pathname}${query ? `?${query}` : ''}`;
}

/** The canonical form a request is matched on: method, path, normalised body, secrets removed. */
export function canonicaliseRequest(request: OutgoingRequest, secrets: readonly string[]): CanonicalRequest {
  const parsed = request.body ? parseJson(request.body) : null;
  const body = parsed === undefined ? request.body : normaliseRequestBody(parsed ?? null);
  return {
    method: request.method.toUpperCase(),
    path: pathOf(request.url),
    body: redactValue(body, secrets),
  };
}
