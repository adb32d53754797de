import { recordResponse } from './recorded-response.js';
import type { RecordedResponse } from './recording-file-schema.js';

/** Headers that described the wire encoding of the live body, which fetch already decoded. */
const WIRE_HEADERS = ['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'];

/**
 * Splits a live response in two: one for the client, streamed as it arrives (a streamed answer is
 * not held back), and one read to its end for the recording. An aborted stream records what came.
 */
export class RecordedResponseReader {
  readonly forClient: Response;
  readonly recorded: Promise<RecordedResponse>;

  constructor(response: Response) {
    const headers = new Headers(response.headers);
    for (const name of WIRE_HEADERS) headers.delete(name);
    if (!response.body) {
      this.forClient = new Response(null, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
      this.recorded = Promise.resolve(recordResponse(response.status, headers, ''));
      return;
    }
    const [client, copy] = response.body.tee();
    this.forClient = new Response(client, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
    this.recorded = readAll(copy).then((text) => recordResponse(response.status, headers, text));
  }
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // The client went away mid-stream: what arrived is what the run saw.
  }
  return text + decoder.decode();
}
