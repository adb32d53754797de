import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { redactSecret } from './judge-credentials.js';
import { JudgeError } from './judge-error.js';

/** What one Messages API call needs, and how hard to try. */
export interface PostJudgeRequestOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  fetch: typeof globalThis.fetch;
  /** Per attempt. */
  timeoutMs: number;
  /** Retries after the first attempt, for 429, 5xx and network errors. */
  maxRetries: number;
  /** Backoff before retry n (0-based) is about retryDelayMs * 2^n, unless the server sends retry-after. */
  retryDelayMs: number;
  /** Named in authentication errors. */
  credentialVariable: string;
  /** Scrubbed from every error message. */
  secret: string;
  signal?: AbortSignal;
}

/** Longest wait a `retry-after` header can impose; a judge call should not hang for minutes. */
const MAX_RETRY_AFTER_MS = 60_000;

const errorBodySchema = z.object({ error: z.object({ type: z.string(), message: z.string() }) });

/**
 * POSTs a Messages API request and returns the parsed JSON answer. Retries 429, 5xx, timeouts
 * and network errors (honouring `retry-after` and `x-should-retry`); throws a JudgeError
 * otherwise. An abort of `signal` rethrows its reason at once.
 */
export async function postJudgeRequest(options: PostJudgeRequestOptions): Promise<unknown> {
  const { signal } = options;
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const canRetry = attempt < options.maxRetries;
    const timeout = AbortSignal.timeout(options.timeoutMs);
    let status: number;
    let text: string;
    let headers: Headers;
    try {
      const response = await options.fetch(options.url, {
        method: 'POST',
        headers: options.headers,
        body: options.body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      status = response.status;
      headers = response.headers;
      text = await response.text();
    } catch (error) {
      signal?.throwIfAborted();
      if (canRetry) {
        await sleep(backoffMs(options.retryDelayMs, attempt), signal);
        continue;
      }
      throw networkError(options, error, timeout.aborted, attempt + 1);
    }
    if (status >= 200 && status < 300) return parseJson(text, options.secret);
    if (canRetry && shouldRetry(status, headers)) {
      const wait = retryAfterMs(headers) ?? backoffMs(options.retryDelayMs, attempt);
      await sleep(wait, signal);
      continue;
    }
    throw httpError(options, status, text, attempt + 1);
  }
}

/** Waits; an abort rethrows the signal's own reason (as fetch does), not a generic AbortError. */
async function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await delay(milliseconds, undefined, { signal });
  } catch (error) {
    signal?.throwIfAborted();
    throw error;
  }
}

function shouldRetry(status: number, headers: Headers): boolean {
  const override = headers.get('x-should-retry');
  if (override === 'true') return true;
  if (override === 'false') return false;
  return status === 429 || status >= 500;
}

function backoffMs(baseMs: number, attempt: number): number {
  // Up to 25% jitter, so parallel test cases hitting a rate limit do not retry in lockstep.
  return Math.round(baseMs * 2 ** attempt * (1 - Math.random() * 0.25));
}

/** `retry-after-ms`, or `retry-after` in seconds or as an HTTP date; capped at one minute. */
function retryAfterMs(headers: Headers): number | undefined {
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return Math.min(milliseconds, MAX_RETRY_AFTER_MS);
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - Date.now()), MAX_RETRY_AFTER_MS);
}

function parseJson(text: string, secret: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const start = redactSecret(text.slice(0, 200), secret);
    throw new JudgeError(`the judge API answered with something that is not JSON: ${start}`, {
      code: 'http',
    });
  }
}

function attempts(count: number): string {
  return count === 1 ? '' : ` (after ${count} attempts)`;
}

function networkError(
  options: PostJudgeRequestOptions,
  error: unknown,
  timedOut: boolean,
  count: number,
): JudgeError {
  const what = timedOut
    ? `no answer within ${options.timeoutMs < 1000 ? `${options.timeoutMs} ms` : `${options.timeoutMs / 1000} s`}`
    : error instanceof Error
      ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`
      : String(error);
  const message = `the judge API at ${new URL(options.url).origin} could not be reached: ${what}${attempts(count)}`;
  return new JudgeError(redactSecret(message, options.secret), { code: 'network', cause: error });
}

function httpError(
  options: PostJudgeRequestOptions,
  status: number,
  text: string,
  count: number,
): JudgeError {
  let detail = text.slice(0, 300);
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) detail = `${parsed.data.error.type}: ${parsed.data.error.message}`;
  } catch {
    // Not JSON: keep the start of the raw text.
  }
  if (status === 401 || status === 403) {
    const message = `the judge API rejected the credentials (HTTP ${status} ${detail}): check ${options.credentialVariable}`;
    return new JudgeError(redactSecret(message, options.secret), {
      code: 'authentication',
      status,
      variable: options.credentialVariable,
    });
  }
  const hint = status === 404 ? ' (check the judge model name in evaluations.model)' : '';
  const message = `the judge request failed: HTTP ${status} ${detail}${hint}${attempts(count)}`;
  return new JudgeError(redactSecret(message, options.secret), { code: 'http', status });
}
