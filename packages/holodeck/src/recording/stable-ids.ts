import type { RecordedExchange } from './recording-file-schema.js';
import { isJsonObject, type JsonValue } from './stable-json.js';

const PLACEHOLDER = /rec_(\d+)$/;

function collectIds(value: JsonValue | undefined, into: string[]): void {
  if (Array.isArray(value)) for (const entry of value) collectIds(entry, into);
  else if (isJsonObject(value)) {
    for (const [key, entry] of Object.entries(value)) {
      if (key === 'id' && typeof entry === 'string') into.push(entry);
      else collectIds(entry, into);
    }
  }
}

function mapValue(value: JsonValue, map: (text: string) => string, key?: string): JsonValue {
  if (typeof value === 'string') return map(value);
  // Creation times of responses (`created`, seconds since 1970) vary from run to run: 0.
  if (typeof value === 'number') return key === 'created' ? 0 : value;
  if (Array.isArray(value)) return value.map((entry) => mapValue(entry, map));
  if (!isJsonObject(value)) return value;
  const result: { [key: string]: JsonValue } = {};
  for (const [name, entry] of Object.entries(value)) result[name] = mapValue(entry, map, name);
  return result;
}

/**
 * Replaces the ids that responses carry (`msg_…`, `toolu_…`, `chatcmpl-…`, `call_…`), which the
 * model makes up anew each run, with placeholders numbered in file order (`toolu_rec_3`), in the
 * responses and wherever a later request quotes them: a re-recorded unchanged suite then gives the
 * same bytes. Replay serves the placeholders, and the client quotes them back.
 */
export function stabiliseIds(exchanges: readonly RecordedExchange[]): RecordedExchange[] {
  const ids: string[] = [];
  for (const exchange of exchanges) {
    collectIds(exchange.response.body, ids);
    for (const event of exchange.response.events ?? []) collectIds(event.data, ids);
  }
  let next = Math.max(0, ...ids.map((id) => Number(PLACEHOLDER.exec(id)?.[1] ?? 0)));
  const placeholders = new Map<string, string>();
  for (const id of ids) {
    if (PLACEHOLDER.test(id) || placeholders.has(id)) continue;
    const prefix = /^[A-Za-z]+[_-]/.exec(id)?.[0] ?? 'id_';
    placeholders.set(id, `${prefix}rec_${++next}`);
  }
  const map = (text: string) => placeholders.get(text) ?? text;
  return exchanges.map(
    (exchange) => mapValue(exchange as unknown as JsonValue, map) as unknown as RecordedExchange,
  );
}
