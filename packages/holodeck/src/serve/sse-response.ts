import { errorMessage } from '../support.js';
/** Writes one server-sent event; `event` names it (omitted: a plain `message`). */
export type SendEvent = (data: unknown, event?: string) => void;

/**
 * A `text/event-stream` response fed by `produce`. The signal it gets aborts when the client goes
 * away (the stream is cancelled, or the request's own signal aborts), so the producer can
 * interrupt the turn it reads. The stream ends when `produce` resolves.
 */
export function sseResponse(
  request: Request,
  produce: (send: SendEvent, signal: AbortSignal) => Promise<void>,
  onEnd?: () => void,
): Response {
  const gone = new AbortController();
  const encoder = new TextEncoder();
  const abort = () => gone.abort();
  request.signal.addEventListener('abort', abort, { once: true });
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send: SendEvent = (data, event) => {
        if (gone.signal.aborted) return;
        const lines = `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
        try {
          controller.enqueue(encoder.encode(lines));
        } catch {
          gone.abort();
        }
      };
      void produce(send, gone.signal)
        .catch((error: unknown) => send({ type: 'error', message: errorMessage(error) }, 'error'))
        .finally(() => {
          request.signal.removeEventListener('abort', abort);
          onEnd?.();
          try {
            controller.close();
          } catch {
            // already closed by a cancel
          }
        });
    },
    cancel() {
      gone.abort();
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    },
  });
}

/** Whether the client asked for an event stream (`Accept: text/event-stream`). */
export function wantsEventStream(request: Request): boolean {
  return (request.headers.get('accept') ?? '').includes('text/event-stream');
}
