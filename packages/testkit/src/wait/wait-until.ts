import { errorMessage } from '../support.js';
/** Options of {@link waitUntil}. */
export interface WaitUntilOptions {
  /** How long to keep checking before failing. */
  timeoutMs: number;
  /** What is awaited, for the failure message ("the hold to be stored"). */
  what: string;
  /** Pause between checks; 20 ms unless given. */
  intervalMs?: number;
}

/**
 * Polls `check` until it returns something other than `undefined`, `false` or `null`, and
 * resolves with that value. Fails after `timeoutMs` with an error naming `what`, and the last
 * error `check` threw, if it threw: a poll without a deadline hangs a test until vitest's own
 * timeout, which names nothing.
 */
export async function waitUntil<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: WaitUntilOptions,
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  const intervalMs = options.intervalMs ?? 20;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause = lastError === undefined ? '' : ` (last check threw: ${errorMessage(lastError)})`;
      throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
