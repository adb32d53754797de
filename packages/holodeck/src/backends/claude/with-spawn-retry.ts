import { AgentSessionError } from '../../errors.js';

const ATTEMPTS = 3;
const FIRST_BACKOFF_MS = 250;

/** True when the error is a process that failed before its session started (safe to retry). */
export function isSpawnFailure(error: unknown): boolean {
  return error instanceof AgentSessionError && error.phase === 'spawn';
}

/**
 * Retries only a failed spawn (3 attempts, exponential backoff). API errors are retried by the
 * CLI itself, and a run that started is never repeated: it may have had side effects.
 */
export async function withSpawnRetry<T>(attempt: () => Promise<T>, sleep = defaultSleep): Promise<T> {
  for (let index = 1; ; index++) {
    try {
      return await attempt();
    } catch (error) {
      if (index >= ATTEMPTS || !isSpawnFailure(error)) throw error;
      await sleep(FIRST_BACKOFF_MS * 2 ** (index - 1));
    }
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
