import { z } from 'zod';

/** How hard one judge call tries: per-attempt timeout and bounded, jittered retries. */
export interface RetryPolicy {
  /** Milliseconds per attempt, the answer's body included. */
  timeoutMs: number;
  /** Retries after the first attempt, for 429, 5xx (unless `x-should-retry: false`), network errors and timeouts. */
  maxRetries: number;
  /** Backoff before retry n (0-based) is about retryDelayMs * 2^n, unless the server says how long to wait. */
  retryDelayMs: number;
  /** Longest wait between attempts, whatever `retry-after` asks for: a judge call must not hang for minutes. */
  maxRetryDelayMs: number;
}

/** The defaults (HoloDeck's evaluation judge uses them as they are; Novarch's rule judge shortens them). */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  timeoutMs: 60_000,
  maxRetries: 2,
  retryDelayMs: 500,
  maxRetryDelayMs: 60_000,
});

/** Each field of a caller's override of the policy. */
export const RetryPolicySchema = z.object({
  timeoutMs: z.int().positive().optional(),
  maxRetries: z.int().min(0).max(10).optional(),
  retryDelayMs: z.int().min(0).optional(),
  maxRetryDelayMs: z.int().min(0).optional(),
});

/** Whether an HTTP error is worth another attempt: the server's `x-should-retry` wins, else 429 and 5xx. */
export function shouldRetry(status: number, headers: Headers): boolean {
  const override = headers.get('x-should-retry');
  if (override === 'true') return true;
  if (override === 'false') return false;
  return status === 429 || status >= 500;
}

/**
 * Milliseconds to wait before retry `attempt` (0-based): what the server asks for in
 * `retry-after-ms` or `retry-after` (seconds or an HTTP date), else exponential backoff with up to
 * 25% jitter, so parallel calls hitting a rate limit do not retry in lockstep. Capped at
 * `maxRetryDelayMs`.
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, headers?: Headers): number {
  const asked = headers === undefined ? undefined : serverDelayMs(headers);
  const backoff = policy.retryDelayMs * 2 ** attempt * (1 - Math.random() * 0.25);
  return Math.round(Math.min(asked ?? backoff, policy.maxRetryDelayMs));
}

function serverDelayMs(headers: Headers): number | undefined {
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
