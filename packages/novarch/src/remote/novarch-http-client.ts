import { z } from 'zod';
import { NovarchError } from '../errors.js';
import { errorMessage } from '../support.js';

/**
 * The Novarch server could not give an answer: unreachable, too slow, a 5xx, an answer that is
 * not what this version expects, or a refusal (4xx, with the server's detail). The message names
 * the server and the request, never the credential. Every governed call that meets it is refused.
 */
export class NovarchServerError extends NovarchError {
  override name = 'NovarchServerError';
  constructor(
    message: string,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
    /** The server's `detail`, when it sent a problem document. */
    readonly detail?: string,
    /** A write whose decision failed after the server recorded it: its action, and whether its refusal is stored. */
    readonly failedAction?: FailedAction,
  ) {
    super(message);
  }
}

/** The action a problem document names (`actionId`, `refusalRecorded`). */
export interface FailedAction {
  actionId: string;
  refusalRecorded: boolean;
}

export interface NovarchHttpClientOptions {
  /** The server's base URL, e.g. `http://novarch.internal:7311`. */
  url: string;
  /** An agent key (`nva_…`) or an operator token (`nvo_…`). */
  credential: string;
  /** One attempt's budget, in ms (default 10000). */
  timeoutMs?: number;
  /** Further attempts after a failure that may be retried (default 2), with a backoff from 200 ms. */
  retries?: number;
}

/** One request: its body, the schema of its answer, and whether repeating it is harmless. */
export interface ClientRequest<T> {
  body?: unknown;
  /** A text body instead of JSON (a rules file's YAML), with its content type. */
  text?: { contentType: string; content: string };
  query?: Record<string, string | undefined>;
  /** Further request headers (a session's secret). */
  headers?: Record<string, string>;
  schema: z.ZodType<T>;
  /**
   * A read, or a long-poll: it may be repeated after a timeout, a reset or a 5xx. Other requests
   * are repeated only when the connection was refused (the server never saw them), so a write is
   * never proposed twice.
   */
  idempotent?: boolean;
  /** This request's budget per attempt, in ms (default the client's). */
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

const REFUSED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const FIRST_BACKOFF_MS = 200;

/** The JSON/HTTP client of the remote engine and of the operator CLI's `--server` mode. */
export class NovarchHttpClient {
  readonly baseUrl: string;
  readonly #credential: string;
  readonly #timeoutMs: number;
  readonly #retries: number;

  constructor(options: NovarchHttpClientOptions) {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw new NovarchError(
        `the Novarch server URL "${options.url}" is not a URL: expected e.g. http://127.0.0.1:7311`,
      );
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new NovarchError(
        `the Novarch server URL "${options.url}" is not http(s): expected e.g. http://127.0.0.1:7311`,
      );
    this.baseUrl = parsed.toString().replace(/\/+$/, '');
    this.#credential = options.credential;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#retries = options.retries ?? 2;
  }

  async request<T>(method: 'GET' | 'POST', path: string, request: ClientRequest<T>): Promise<T> {
    const what = `${method} ${path}`;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.#attempt(method, path, request);
      if (outcome.ok) return this.#parse(what, outcome.value, request.schema);
      const retry =
        attempt < this.#retries &&
        !request.signal?.aborted &&
        (outcome.refused || (request.idempotent === true && outcome.transient));
      if (!retry) throw outcome.error;
      await sleep(FIRST_BACKOFF_MS * 2 ** attempt, request.signal);
    }
  }

  async #attempt<T>(
    method: string,
    path: string,
    request: ClientRequest<T>,
  ): Promise<
    | { ok: true; value: unknown }
    | { ok: false; error: NovarchServerError; refused: boolean; transient: boolean }
  > {
    const what = `${method} ${path}`;
    const budget = request.timeoutMs ?? this.#timeoutMs;
    const timeout = AbortSignal.timeout(budget);
    const signal = request.signal === undefined ? timeout : AbortSignal.any([timeout, request.signal]);
    let response: Response;
    try {
      response = await fetch(
        `${this.baseUrl}${path}${searchOf(request.query)}`,
        requestInit(method, this.#credential, request, signal),
      );
    } catch (error) {
      const code = errorCode(error);
      const timedOut = timeout.aborted;
      const reason = timedOut
        ? `no answer within ${budget} ms`
        : request.signal?.aborted
          ? 'the call was aborted'
          : `unreachable (${code ?? errorMessage(error)})`;
      return {
        ok: false,
        error: new NovarchServerError(`the Novarch server at ${this.baseUrl} failed ${what}: ${reason}`),
        refused: code !== undefined && REFUSED_CODES.has(code),
        transient: !request.signal?.aborted,
      };
    }
    const text = await response.text().catch(() => '');
    if (response.ok) {
      try {
        return { ok: true, value: JSON.parse(text) };
      } catch {
        return {
          ok: false,
          error: new NovarchServerError(
            `the Novarch server at ${this.baseUrl} answered ${what} with no JSON`,
            response.status,
          ),
          refused: false,
          transient: false,
        };
      }
    }
    const detail = problemDetail(text);
    return {
      ok: false,
      error: new NovarchServerError(
        `the Novarch server at ${this.baseUrl} refused ${what}: ${response.status}${detail === undefined ? '' : ` ${detail}`}`,
        response.status,
        detail,
        failedActionOf(text),
      ),
      refused: false,
      transient: response.status >= 500,
    };
  }

  #parse<T>(what: string, value: unknown, schema: z.ZodType<T>): T {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const first = parsed.error.issues[0];
    throw new NovarchServerError(
      `the Novarch server at ${this.baseUrl} answered ${what} with a body this novarch does not understand (${first?.path.join('.') ?? ''}: ${first?.message ?? 'invalid'}); are server and client the same version?`,
    );
  }
}

/** `?key=value&…` of the query's defined values; empty without any. */
function searchOf(query: ClientRequest<unknown>['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, value);
  return params.size > 0 ? `?${params.toString()}` : '';
}

/** The fetch options of one attempt: the bearer credential, JSON accepted, the text or JSON body. */
function requestInit(
  method: string,
  credential: string,
  request: ClientRequest<unknown>,
  signal: AbortSignal,
): RequestInit {
  return {
    method,
    headers: {
      ...request.headers,
      authorization: `Bearer ${credential}`,
      accept: 'application/json',
      ...(request.text !== undefined
        ? { 'content-type': request.text.contentType }
        : request.body === undefined
          ? {}
          : { 'content-type': 'application/json' }),
    },
    ...(request.text !== undefined
      ? { body: request.text.content }
      : request.body === undefined
        ? {}
        : { body: JSON.stringify(request.body) }),
    signal,
  };
}

const FailedActionSchema = z.object({ actionId: z.string().min(1), refusalRecorded: z.boolean().optional() });

function failedActionOf(text: string): FailedAction | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = FailedActionSchema.safeParse(body);
  return parsed.success
    ? { actionId: parsed.data.actionId, refusalRecorded: parsed.data.refusalRecorded ?? false }
    : undefined;
}

function problemDetail(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && 'detail' in body && typeof body.detail === 'string')
      return body.detail;
  } catch {
    // not a problem document
  }
  return text.trim() === '' ? undefined : text.slice(0, 200);
}

function errorCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  if (typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string')
    return cause.code;
  return undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
