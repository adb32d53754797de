import type { ChatCompletionsBody } from './chat-completions-body.js';
import type { EmbeddingsBody } from './embeddings-body.js';
import type { OpenAIApi } from './match-openai-route.js';

/** How the fake OpenAI server treated a request. */
export type OpenAIRequestKind = 'chat' | 'embeddings' | 'unexpected';

/** One HTTP request the fake OpenAI server received, as it arrived. */
export interface OpenAIRecordedRequest {
  /** 1-based arrival number among all requests of this server (since the last `reset()`). */
  sequence: number;
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Query string including `?` (Azure's `?api-version=...`), or `''`. */
  query: string;
  /** Lower-cased header names (`authorization`, `api-key`, `openai-organization`, ...). */
  headers: Record<string, string>;
  /** Parsed JSON body; `undefined` when the body was empty or not JSON (see `rawBody`). */
  body: unknown;
  rawBody: string;
  /** The API flavour of the path; `undefined` for paths the fake does not serve. */
  api: OpenAIApi | undefined;
  /** The deployment of an Azure `/openai/deployments/{deployment}/...` path. */
  deployment: string | undefined;
  /** The `api-version` query parameter, if any. */
  apiVersion: string | undefined;
  /** The validated body of a chat completions request. */
  chatBody: ChatCompletionsBody | undefined;
  /** The validated body of an embeddings request. */
  embeddingsBody: EmbeddingsBody | undefined;
  receivedAt: Date;
  kind: OpenAIRequestKind;
  /** Why the request got its kind, e.g. `script step 2: chatReply("Done")` or `no route ...: answered 404`. */
  reason: string;
}
