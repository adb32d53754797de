import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { RunCatalog } from './run-catalog.js';

/**
 * The runs folder as the view server watches it: one catalog refresh at a time (callers share
 * it), polling only while an event stream listens, and the `/api/events` stream that says which
 * runs changed on disk (`ready`, then `runs-changed` with their ids, a keep-alive every 15 s).
 */
export class RunChangeFeed {
  readonly #catalog: RunCatalog;
  readonly #pollIntervalMs: number;
  readonly #listeners = new Set<(ids: string[]) => void>();
  /** Wakes each open event stream so it can end (close()). */
  readonly #closers = new Set<() => void>();
  #closed = false;
  #polling: NodeJS.Timeout | undefined;
  #refreshing: Promise<string[]> | undefined;

  constructor(catalog: RunCatalog, pollIntervalMs: number) {
    this.#catalog = catalog;
    this.#pollIntervalMs = pollIntervalMs;
  }

  /** Reads the runs folder again; resolves with the ids of the runs that changed. */
  refresh(): Promise<string[]> {
    this.#refreshing ??= this.#catalog.refresh().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /** The `/api/events` answer: a server-sent event stream until the page leaves or close(). */
  stream(c: Context): Response {
    return streamSSE(c, async (stream) => {
      await this.refresh();
      let wake: (() => void) | undefined;
      const queue: string[][] = [];
      const listener = (ids: string[]) => {
        queue.push(ids);
        wake?.();
      };
      const end = () => wake?.();
      this.#closers.add(end);
      this.#listeners.add(listener);
      this.#startPolling();
      stream.onAbort(() => {
        this.#listeners.delete(listener);
        this.#stopPollingWhenIdle();
        wake?.();
      });
      await stream.writeSSE({ event: 'ready', data: '[]' });
      while (!this.#closed && !stream.aborted && !stream.closed) {
        const ids = queue.shift();
        if (ids) {
          await stream.writeSSE({ event: 'runs-changed', data: JSON.stringify(ids) });
          continue;
        }
        // Wait for a change, or 15 s for a keep-alive comment.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 15_000);
          timer.unref();
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
        if (!queue.length && !stream.aborted && !this.#closed) await stream.write(': keep-alive\n\n');
      }
      this.#closers.delete(end);
      this.#listeners.delete(listener);
      this.#stopPollingWhenIdle();
    });
  }

  /** Ends every open stream and stops polling. */
  close(): void {
    this.#closed = true;
    for (const end of [...this.#closers]) end();
    this.#listeners.clear();
    if (this.#polling) clearInterval(this.#polling);
    this.#polling = undefined;
  }

  #startPolling(): void {
    if (this.#polling) return;
    this.#polling = setInterval(async () => {
      const changed = await this.refresh().catch(() => []);
      if (changed.length) for (const listener of this.#listeners) listener(changed);
    }, this.#pollIntervalMs);
    this.#polling.unref();
  }

  #stopPollingWhenIdle(): void {
    if (this.#listeners.size === 0 && this.#polling) {
      clearInterval(this.#polling);
      this.#polling = undefined;
    }
  }
}
