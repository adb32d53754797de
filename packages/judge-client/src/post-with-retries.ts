import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import type { FailFunction, JudgeClientError } from './judge-client-error.js';
import { type RetryPolicy, retryDelayMs, shouldRetry } from './retry-policy.js';
import { errorMessage } from './support.js';

/** One POST of a JSON body, and how hard to try. */
export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  fetch: typeof globalThis.fetch;
  policy: RetryPolicy;
  /** Named in authentication errors. */
  variable: string;
  /** Said after a 404. */
  notFoundHint: string;
  /** Builds every error, scrubbed of the secret. */
  fail: FailFunction;
  signal?: AbortSignal | undefined;
}

/** Error bodies of Anthropic (`{error: {type, message}}`), OpenAI and Azure (`{error: {code, message}}`), Ollama. */
const errorBodySchema = z.object({
  error: z.union([
    z.string(),
    z.object({
      message: z.string(),
      type: z.string().nullish(),
      code: z.union([z.string(), z.number()]).nullish(),
    }),
  ]),
});

/**
 * POSTs and returns the parsed JSON of a 2xx answer. Retries 429, 5xx, network errors and
 * timeouts within the policy (honouring `retry-after-ms`, `retry-after` and `x-should-retry`);
 * anything else throws a JudgeClientError. An abort of `signal` throws an `aborted` one at once.
 */
export async function postWithRetries(options: PostOptions): Promise<unknown> {
  const { signal, policy } = options;
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(options);
    const canRetry = attempt <= policy.maxRetries;
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await options.fetch(options.url, {
        method: 'POST',
        headers: options.headers,
        body: options.body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await response.text();
    } catch (error) {
      throwIfAborted(options);
      if (canRetry) {
        await sleep(retryDelayMs(policy, attempt - 1), options);
        continue;
      }
      throw timeout.aborted ? timeoutError(options, attempt) : networkError(options, error, attempt);
    }
    if (response.ok) return parseJson(options, text, response.status);
    if (canRetry && shouldRetry(response.status, response.headers)) {
      await sleep(retryDelayMs(policy, attempt - 1, response.headers), options);
      continue;
    }
    throw httpError(options, response.status, text, attempt);
  }
}

function throwIfAborted(options: PostOptions): void {
  const { signal } = options;
  if (signal?.aborted !== true) return;
  const reason: unknown = signal.reason;
  const what = errorMessage(reason);
  throw options.fail(`the judge call was aborted: ${what}`, { code: 'aborted', cause: reason });
}

/** Waits between attempts; an abort of the caller's signal ends the wait at once. */
async function sleep(milliseconds: number, options: PostOptions): Promise<void> {
  try {
    await delay(milliseconds, undefined, options.signal ? { signal: options.signal } : {});
  } catch (error) {
    throwIfAborted(options);
    throw error;
  }
}

function origin(options: PostOptions): string {
  return new URL(options.url).origin;
}

function attemptsNote(count: number): string {
  return count === 1 ? '' : ` (after ${count} attempts)`;
}

function duration(milliseconds: number): string {
  return milliseconds < 1000 ? `${milliseconds} ms` : `${milliseconds / 1000} s`;
}

function timeoutError(options: PostOptions, attempts: number): JudgeClientError {
  return options.fail(
    `the judge API at ${origin(options)} did not answer within ${duration(options.policy.timeoutMs)}${attemptsNote(attempts)}`,
    { code: 'timeout', attempts },
  );
}

function networkError(options: PostOptions, error: unknown, attempts: number): JudgeClientError {
  const what =
    error instanceof Error
      ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`
      : String(error);
  return options.fail(
    `the judge API at ${origin(options)} could not be reached: ${what}${attemptsNote(attempts)}`,
    { code: 'network', attempts, cause: error },
  );
}

function parseJson(options: PostOptions, text: string, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw options.fail(
      `the judge API answered HTTP ${status} with something that is not JSON: ${JSON.stringify(text.slice(0, 200))}`,
      { code: 'http', status },
    );
  }
}

/** The provider's own words about an error: `type: message` from a JSON body, else the start of the text. */
function describeErrorBody(text: string): string {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) {
      const { error } = parsed.data;
      if (typeof error === 'string') return error;
      const kind = error.type ?? error.code;
      return kind === undefined || kind === null ? error.message : `${kind}: ${error.message}`;
    }
  } catch {
    // Not JSON: the start of the raw text says more than nothing.
  }
  return text.trim().slice(0, 300);
}

function httpError(options: PostOptions, status: number, text: string, attempts: number): JudgeClientError {
  const detail = describeErrorBody(text);
  const what = detail === '' ? `HTTP ${status}` : `HTTP ${status} ${detail}`;
  if (status === 401 || status === 403) {
    return options.fail(`the judge API rejected the credentials (${what}): check ${options.variable}`, {
      code: 'authentication',
      status,
      variable: options.variable,
      attempts,
    });
  }
  const hint = status === 404 ? options.notFoundHint : '';
  return options.fail(`the judge request failed: ${what}${hint}${attemptsNote(attempts)}`, {
    code: 'http',
    status,
    attempts,
  });
}
