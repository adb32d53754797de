import { z } from 'zod';
import { AgentSessionError, HoloDeckError } from '../../../errors.js';
import type { EmbeddingSettings } from './resolve-embedding-settings.js';

/** Tuning of the embeddings client (defaults suit OpenAI's limits). */
export interface EmbeddingsClientOptions {
  /** Texts per request; default 64. */
  batchSize?: number;
  /** Requests in flight at once, over all `embed()` calls of this client; default 4. */
  concurrency?: number;
  /** Retries of a 429, 5xx or network failure; default 4. */
  maxRetries?: number;
  /** First backoff in ms, doubled each retry (a Retry-After header wins); default 500. */
  baseDelayMs?: number;
  /** Sends the requests (HoloDeck's recorder in `--record`/`--replay` runs); default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/**
 * The embeddings API failed in a way a retry does not fix (or retries ran out). An
 * AgentSessionError: at the start of `chat` or `test` it stops the run like a model API failure.
 */
export class EmbeddingsRequestError extends AgentSessionError {
  override name = 'EmbeddingsRequestError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The model returned vectors of another size than expected (`embedding_dimensions`, or each other). */
export class EmbeddingDimensionError extends HoloDeckError {
  override name = 'EmbeddingDimensionError';
  constructor(
    readonly model: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`embedding model ${model} returned vectors of ${actual} dimensions, expected ${expected}`);
  }
}

const ResponseSchema = z.object({
  data: z.array(z.object({ index: z.int().nonnegative(), embedding: z.array(z.number()) })),
});

/** The billed input tokens of an answer (OpenAI, Azure OpenAI and Ollama send them). */
const UsageSchema = z.object({ usage: z.object({ prompt_tokens: z.int().nonnegative() }) });

/** Told once per answered request: the input tokens it was billed for, undefined when the answer did not say. */
export type EmbeddingsUsageListener = (inputTokens: number | undefined) => void;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * Embeddings over the OpenAI-compatible `/embeddings` API (OpenAI, Azure OpenAI, Ollama) with
 * plain fetch: inputs in batches, a bounded number of requests at once, retries with backoff on
 * 429, 5xx and network errors, every vector checked to have one size.
 */
export class EmbeddingsClient {
  /** Requests sent (retries included), for progress and tests. */
  requests = 0;
  /** The vector size seen so far (or required by `embedding_dimensions`). */
  dimensions: number | undefined;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly maxRetries: number;
  private readonly baseDelayMs: number;
  private readonly fetch: typeof fetch;
  /** Requests in flight now, and the requests waiting for a free slot. */
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly settings: EmbeddingSettings,
    options: EmbeddingsClientOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 64;
    this.concurrency = options.concurrency ?? 4;
    this.maxRetries = options.maxRetries ?? 4;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.dimensions = settings.dimensions;
  }

  /** Runs `request` once fewer than `concurrency` requests of this client are in flight. */
  private async limited<T>(request: () => Promise<T>): Promise<T> {
    while (this.inFlight >= this.concurrency)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight++;
    try {
      return await request();
    } finally {
      this.inFlight--;
      this.waiting.shift()?.();
    }
  }

  /**
   * One vector per text, in order, in batches of `batchSize`; calls made at once share the
   * client's `concurrency`. `onBatch` is told how many texts each finished batch held; `onUsage`
   * the tokens of each answered request (failed and retried ones are not billed). `send` replaces
   * the client's fetch for this call (a recorded run's own fetch).
   */
  async embed(
    texts: readonly string[],
    signal?: AbortSignal,
    onBatch?: (count: number) => void,
    onUsage?: EmbeddingsUsageListener,
    send: typeof fetch = this.fetch,
  ): Promise<Float32Array[]> {
    const batches: { start: number; texts: string[] }[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      batches.push({ start, texts: texts.slice(start, start + this.batchSize) });
    }
    const vectors = new Array<Float32Array>(texts.length);
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const batch = batches[next++];
        if (!batch) break;
        const result = await this.limited(() => this.embedBatch(batch.texts, send, signal, onUsage));
        result.forEach((vector, offset) => {
          vectors[batch.start + offset] = vector;
        });
        onBatch?.(batch.texts.length);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, batches.length) }, worker));
    return vectors;
  }

  private scrub(text: string): string {
    return this.settings.secrets.reduce((result, secret) => result.split(secret).join('***'), text);
  }

  private async embedBatch(
    input: string[],
    send: typeof fetch,
    signal?: AbortSignal,
    onUsage?: EmbeddingsUsageListener,
  ): Promise<Float32Array[]> {
    const { settings } = this;
    const body = JSON.stringify({
      model: settings.model,
      input,
      encoding_format: 'float',
      ...(settings.dimensions !== undefined ? { dimensions: settings.dimensions } : {}),
    });
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        this.requests++;
        response = await send(settings.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...settings.headers },
          body,
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (attempt >= this.maxRetries) {
          const reason =
            error instanceof Error
              ? error.cause instanceof Error
                ? error.cause.message
                : error.message
              : String(error);
          const fix =
            reason === 'bad port'
              ? `fetch refuses that port: use another port in ${settings.providerField}.endpoint`
              : `check ${settings.providerField}.endpoint and that the server is running`;
          throw new EmbeddingsRequestError(
            `cannot reach the embeddings API at ${this.scrub(settings.url)}: ${reason} (${fix})`,
          );
        }
        await sleep(this.baseDelayMs * 2 ** attempt, signal);
        continue;
      }
      if (response.ok) {
        const json: unknown = await response.json();
        const usage = UsageSchema.safeParse(json);
        onUsage?.(usage.success ? usage.data.usage.prompt_tokens : undefined);
        return this.readVectors(json, input.length);
      }
      const text = this.scrub((await response.text()).slice(0, 300));
      const retryable = response.status === 429 || response.status >= 500;
      if (!retryable || attempt >= this.maxRetries) {
        const tried = retryable ? ` after ${attempt + 1} attempts` : '';
        const hint =
          response.status === 401 || response.status === 403
            ? ` (check the API key of ${settings.providerField})`
            : response.status === 404
              ? ` (check the embedding model "${settings.model}" and the endpoint)`
              : retryable
                ? ` (the service of ${settings.providerField} is failing or overloaded: retry later, or check ${settings.providerField}.endpoint)`
                : '';
        throw new EmbeddingsRequestError(
          `the embeddings API at ${this.scrub(settings.url)} answered ${response.status}${tried}${hint}: ${text}`,
          response.status,
        );
      }
      const retryAfter = Number(response.headers.get('retry-after'));
      const delay =
        Number.isFinite(retryAfter) && retryAfter > 0
          ? Math.min(retryAfter * 1000, 30_000)
          : this.baseDelayMs * 2 ** attempt;
      await sleep(delay, signal);
    }
  }

  private readVectors(json: unknown, count: number): Float32Array[] {
    const parsed = ResponseSchema.safeParse(json);
    if (!parsed.success || parsed.data.data.length !== count) {
      throw new EmbeddingsRequestError(
        `the embeddings API at ${this.scrub(this.settings.url)} sent an unexpected answer (expected ${count} embeddings)`,
      );
    }
    const vectors = new Array<Float32Array>(count);
    for (const item of parsed.data.data) {
      const expected = this.dimensions ?? item.embedding.length;
      if (item.embedding.length !== expected) {
        throw new EmbeddingDimensionError(this.settings.model, expected, item.embedding.length);
      }
      this.dimensions = expected;
      vectors[item.index] = Float32Array.from(item.embedding);
    }
    return vectors;
  }
}
