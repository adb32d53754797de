import { z } from 'zod';
import { NovarchError } from '../errors.js';

/** Slack's Web API, unless `server.slack.api_url` says otherwise. */
export const SLACK_API_URL = 'https://slack.com/api';

/** A Slack call that failed for good (or after its retries); never carries the token. */
export class SlackApiError extends NovarchError {
  constructor(
    readonly method: string,
    /** Slack's `error` code (`channel_not_found`, `ratelimited`, …) or what went wrong. */
    readonly reason: string,
  ) {
    super(`Slack ${method} failed: ${reason}`);
    this.name = 'SlackApiError';
  }
}

export interface SlackApiClientOptions {
  /** The bot token (`xoxb-…`), sent as a bearer token and never logged. */
  botToken: string;
  /** The Web API base (default `SLACK_API_URL`). */
  apiUrl?: string;
  /** Attempts per call (default 4): rate limits, 5xx, network errors and Slack's own transient errors are retried. */
  maxAttempts?: number;
  /** The longest `Retry-After` honoured (s, default 30); a longer one gives the call up. */
  maxRetryAfterSeconds?: number;
  /** One request's budget (ms, default 10000). */
  timeoutMs?: number;
  /** The wait before retry `attempt` when Slack names none (ms; default 500 × 2^(attempt-1)). */
  backoffMs?: (attempt: number) => number;
  fetch?: typeof fetch;
}

const ResponseSchema = z.looseObject({
  ok: z.boolean(),
  error: z.string().optional(),
  channel: z.string().optional(),
  ts: z.string().optional(),
});

/** What a successful call answered (the fields Novarch uses). */
export type SlackApiResponse = z.output<typeof ResponseSchema>;

/** Slack errors that mean "try again later", not "this call is wrong". */
const TRANSIENT = new Set([
  'ratelimited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The few Slack Web API methods Novarch calls (`chat.postMessage`, `chat.update`) and interaction
 * response URLs. A 429 waits its `Retry-After`; 5xx, network errors and transient Slack errors are
 * retried with backoff; anything else (`channel_not_found`, `invalid_auth`, …) fails at once.
 */
export class SlackApiClient {
  readonly #options: SlackApiClientOptions;

  constructor(options: SlackApiClientOptions) {
    this.#options = options;
  }

  /** Calls Web API `method` with a JSON body; answers Slack's response when `ok`. */
  call(method: string, body: Record<string, unknown>): Promise<SlackApiResponse> {
    const base = (this.#options.apiUrl ?? SLACK_API_URL).replace(/\/+$/, '');
    return this.#send(method, `${base}/${method}`, body, true);
  }

  /** Posts to an interaction's `response_url` (an ephemeral reply, or a replacement). */
  async respond(responseUrl: string, body: Record<string, unknown>): Promise<void> {
    await this.#send('response_url', responseUrl, body, false);
  }

  async #send(
    method: string,
    url: string,
    body: Record<string, unknown>,
    authorized: boolean,
  ): Promise<SlackApiResponse> {
    const attempts = this.#options.maxAttempts ?? 4;
    const maxRetryAfter = this.#options.maxRetryAfterSeconds ?? 30;
    const backoff = this.#options.backoffMs ?? ((attempt: number) => 500 * 2 ** (attempt - 1));
    let last = 'no attempt was made';
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      let wait = backoff(attempt);
      try {
        const response = await (this.#options.fetch ?? fetch)(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            ...(authorized ? { authorization: `Bearer ${this.#options.botToken}` } : {}),
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.#options.timeoutMs ?? 10_000),
          redirect: 'error',
        });
        const text = await response.text();
        if (response.status === 429) {
          const retryAfter = Number(response.headers.get('retry-after') ?? '1');
          last = `rate limited (429, Retry-After ${response.headers.get('retry-after') ?? 'none'})`;
          if (!Number.isFinite(retryAfter) || retryAfter > maxRetryAfter)
            throw new SlackApiError(method, `${last}: longer than ${maxRetryAfter} s, given up`);
          wait = Math.max(0, retryAfter) * 1000;
        } else if (response.status >= 500) {
          last = `HTTP ${response.status}`;
        } else if (response.status !== 200) {
          throw new SlackApiError(method, `HTTP ${response.status}`);
        } else if (!authorized) {
          return { ok: true };
        } else {
          const parsed = ResponseSchema.safeParse(parseJson(text));
          if (!parsed.success) throw new SlackApiError(method, 'the answer is not Slack JSON ({ ok, … })');
          if (parsed.data.ok) return parsed.data;
          const error = parsed.data.error ?? 'unknown_error';
          if (!TRANSIENT.has(error)) throw new SlackApiError(method, error);
          last = error;
        }
      } catch (error) {
        if (error instanceof SlackApiError) throw error;
        last = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      if (attempt < attempts) await sleep(wait);
    }
    throw new SlackApiError(method, `${last}; gave up after ${attempts} attempts`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
