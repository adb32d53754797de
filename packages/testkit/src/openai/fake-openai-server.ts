import { z } from 'zod';
import { listenOnLoopback } from '../wire/loopback-server.js';
import { FakeOpenAI } from './fake-openai.js';
import type { OpenAIRecordedRequest } from './openai-recorded-request.js';
import type { ChatStep, EmbeddingsStep } from './openai-script-step.js';

/** Options of `startFakeOpenAI()`. */
export interface FakeOpenAIOptions {
  /** Steps answering the chat completions requests, in order. More can be added with `script()`. */
  steps?: ChatStep[];
  /** Steps answering embeddings requests, in order; once used up, embeddings get hashed vectors again. */
  embeddingsSteps?: EmbeddingsStep[];
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Delay before every chat completions answer, in milliseconds (benchmarks use 2000). */
  latencyMs?: number;
  /**
   * The answer once the script is used up, for as many requests as come (benchmarks):
   * e.g. `fallback: chatReply('ok')`. Without it, an extra request is unexpected and gets a 400.
   */
  fallback?: ChatStep;
  /** When set, requests must carry it (`Authorization: Bearer`, or `api-key` on Azure routes) or get a 401. */
  apiKey?: string;
  /** Dimension of the hashed embeddings when a request sets no `dimensions`. Default 1536 (text-embedding-3-small). */
  embeddingDimensions?: number;
  /** Replaces the hashed embeddings (`fakeEmbedding`): the vector for one input. */
  embed?: (input: string, dimensions: number) => number[];
  /** Called for every request once it is recorded (e.g. to log requests). */
  onRequest?: (request: OpenAIRecordedRequest) => void;
}

/** A running fake OpenAI-compatible API (Chat Completions and embeddings). */
export interface FakeOpenAIServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** `url + '/v1'`: the base URL for `createOpenAI`, `createOpenAICompatible` (Ollama, vLLM, LiteLLM) and plain fetch. */
  readonly baseUrl: string;
  /** `url + '/openai/v1'`: `createAzure({ baseURL })` then calls Azure's v1 API, `/openai/v1/chat/completions`. */
  readonly azureBaseUrl: string;
  /** `url + '/openai'`: for `createAzure({ baseURL, useDeploymentBasedUrls: true, apiVersion })`. */
  readonly azureDeploymentsBaseUrl: string;
  readonly port: number;
  /** Chat completions requests answered by a step (or the fallback), in arrival order. */
  readonly requests: readonly OpenAIRecordedRequest[];
  /** Embeddings requests answered, in arrival order. */
  readonly embeddingsRequests: readonly OpenAIRecordedRequest[];
  /** Requests the server could not answer as planned: unknown paths, invalid bodies, wrong key, exhausted script. */
  readonly unexpected: readonly OpenAIRecordedRequest[];
  /** Every request, in arrival order. */
  readonly allRequests: readonly OpenAIRecordedRequest[];
  /** Chat steps not used yet. */
  readonly remainingSteps: readonly ChatStep[];
  /** Embeddings steps not used yet. */
  readonly remainingEmbeddingsSteps: readonly EmbeddingsStep[];
  /** Appends steps to the chat script. */
  script(...steps: ChatStep[]): void;
  /** Appends steps to the embeddings script. */
  scriptEmbeddings(...steps: EmbeddingsStep[]): void;
  /** Throws a descriptive Error if steps remain unused or an unexpected request arrived. */
  assertComplete(): void;
  /** Clears both scripts and all recordings (one server per test file, reset between tests). */
  reset(): void;
  close(): Promise<void>;
}

/** The numeric and string options, checked once so a typo fails at start rather than mid-test. */
const optionsSchema = z.looseObject({
  port: z.int().min(0).max(65535).optional(),
  latencyMs: z.number().nonnegative().optional(),
  apiKey: z.string().min(1).optional(),
  embeddingDimensions: z.int().positive().max(8192).optional(),
});

/** Starts a fake OpenAI-compatible API on 127.0.0.1 and resolves once it listens. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAIServer> {
  const checked = optionsSchema.safeParse(options);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`startFakeOpenAI(): invalid options: ${issues.join('; ')}`);
  }
  const listening = await listenOnLoopback(options.port);
  const fake = new FakeOpenAI(listening, options);
  listening.server.on('request', (request, response) => {
    void fake.handle(request, response);
  });
  return fake;
}
