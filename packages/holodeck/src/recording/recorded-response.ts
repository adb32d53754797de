import type { RecordedResponse } from './recording-file-schema.js';
import { type JsonValue, parseJson } from './stable-json.js';

/** Response headers kept: what a client reads to decode or to retry. The rest (request ids, dates, cookies) is dropped. */
const KEPT_HEADERS = ['content-type', 'retry-after', 'retry-after-ms'];

function parseEvents(text: string): NonNullable<RecordedResponse['events']> {
  const events: NonNullable<RecordedResponse['events']> = [];
  for (const block of text.replace(/\r\n/g, '\n').split('\n\n')) {
    if (!block.trim()) continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    const joined = data.join('\n');
    events.push({ ...(event !== undefined ? { event } : {}), data: parseJson(joined) ?? joined });
  }
  return events;
}

/** A response as stored: a stream of server-sent events as its events in order, JSON as JSON, else text. */
export function recordResponse(status: number, headers: Headers, text: string): RecordedResponse {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  const type = headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) return { status, headers: kept, events: parseEvents(text) };
  const json = type.includes('json') ? parseJson(text) : undefined;
  return json !== undefined ? { status, headers: kept, body: json } : { status, headers: kept, text };
}

/** The bytes of a recorded response's body, as the client gets them in replay. */
export function responseText(recorded: RecordedResponse): string {
  if (recorded.events) {
    return recorded.events
      .map((entry) => {
        const data = typeof entry.data === 'string' ? entry.data : JSON.stringify(entry.data);
        return `${entry.event !== undefined ? `event: ${entry.event}\n` : ''}data: ${data}\n\n`;
      })
      .join('');
  }
  if (recorded.body !== undefined) return JSON.stringify(recorded.body);
  return recorded.text ?? '';
}

/**
 * What answers a request: a recorded response (replay), written as it is, or the live one, which
 * is being recorded. The proxy writes a recorded one to its socket without fetch's Response.
 */
export type ExchangeAnswer = { recorded: RecordedResponse } | { live: Response };

/** The body of a recorded response in the pieces replay sends: a stream event by event, else whole. */
export function replayChunks(recorded: RecordedResponse): string[] {
  if (recorded.status === 204) return [];
  const text = responseText(recorded);
  return (recorded.events ? text.split(/(?<=\n\n)/) : [text]).filter((chunk) => chunk !== '');
}

/** A fetch Response replaying a recorded one; a stream is sent event by event. */
export function replayResponse(recorded: RecordedResponse): Response {
  const encoder = new TextEncoder();
  const chunks = replayChunks(recorded);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(recorded.status === 204 ? null : body, {
    status: recorded.status,
    headers: recorded.headers,
  });
}

/** The answer to a request with no recording: an API error (400: not retried). */
export function noRecordingAnswer(requestPath: string, message: string): ExchangeAnswer {
  // In the error format of the API the client speaks, so it reports it as an API error.
  const body: JsonValue = requestPath.includes('/messages')
    ? { type: 'error', error: { type: 'invalid_request_error', message } }
    : { error: { message, type: 'invalid_request_error', code: 'holodeck_no_recording' } };
  return { recorded: { status: 400, headers: { 'content-type': 'application/json' }, body } };
}

/** A fetch Response for an answer (the in-process clients). */
export function asResponse(answer: ExchangeAnswer): Response {
  return 'live' in answer ? answer.live : replayResponse(answer.recorded);
}
