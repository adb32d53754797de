import type { ServerResponse } from 'node:http';
import { sleep } from './sleep.js';
import { formatSseEvent, type SseEvent } from './sse-events.js';

/** Writes a `text/event-stream` response frame by frame; stops quietly when the client went away. */
export class SseWriter {
  constructor(
    private readonly response: ServerResponse,
    private readonly options: { chunkDelayMs?: number; signal?: AbortSignal } = {},
  ) {}

  private get closed(): boolean {
    return this.response.destroyed || this.response.writableEnded || this.options.signal?.aborted === true;
  }

  /** Sends the status line and SSE headers. */
  open(headers: Record<string, string> = {}): void {
    this.response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...headers,
    });
    this.response.flushHeaders();
  }

  /** Writes Anthropic-style events (`event:` + `data:`) in order, waiting `chunkDelayMs` between them. */
  async write(events: readonly SseEvent[]): Promise<void> {
    await this.writeFrames(events.map(formatSseEvent));
  }

  /** Writes already framed SSE text (each ending in a blank line), waiting `chunkDelayMs` between them. */
  async writeFrames(frames: readonly string[]): Promise<void> {
    const delay = this.options.chunkDelayMs ?? 0;
    for (const [index, frame] of frames.entries()) {
      if (this.closed) return;
      this.response.write(frame);
      if (delay > 0 && index < frames.length - 1) await sleep(delay, this.options.signal);
    }
  }

  /** Ends the response. */
  end(): void {
    if (!this.response.writableEnded) this.response.end();
  }
}
