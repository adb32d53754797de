import type { DynamicStepOf } from '../script/resolve-step.js';
import type { OpenAIRecordedRequest } from './openai-recorded-request.js';

/** Why the fake model stopped, as Chat Completions spells it. */
export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/** One scripted tool call. */
export interface ChatToolCall {
  name: string;
  /** An object is sent as its JSON; a string is sent as is (e.g. to script malformed arguments). */
  arguments: Record<string, unknown> | string;
  /** Defaults to `call_fake_<request>_<index>`. */
  id?: string;
}

/** Token counts to report; anything left out is estimated from the request and reply sizes. */
export interface ChatStepUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  /** `prompt_tokens_details.cached_tokens` (0 by default). */
  cached_tokens?: number;
  /** `completion_tokens_details.reasoning_tokens` (estimated from `reasoning`, else 0). */
  reasoning_tokens?: number;
}

/** Options every chat message step accepts. */
export interface ChatStepOptions {
  /** Usage reported in the JSON answer, or in the usage chunk when `stream_options.include_usage` is set. */
  usage?: ChatStepUsage;
  /** Wait this long before answering (on top of the server-wide `latencyMs`). */
  delayMs?: number;
  /** Wait this long between streamed chunks, to make token streaming visible in time. */
  chunkDelayMs?: number;
  /** Model name to answer with; defaults to echoing the request's `model` (or the Azure deployment). */
  model?: string;
  /** Replaces the finish_reason (`stop`, or `tool_calls` when the message has tool calls), e.g. `length`. */
  finishReason?: ChatFinishReason;
}

/** A scripted assistant message (streamed as chunks when the request asks for `stream: true`). */
export interface ChatMessageStep extends Omit<ChatStepOptions, 'finishReason'> {
  type: 'chat-message';
  /** Short description used in `assertComplete()` failures and request reasons. */
  label: string;
  /** `null` for a message with tool calls only. */
  content: string | null;
  toolCalls: ChatToolCall[];
  /** Sent as `reasoning_content` (what Ollama, vLLM and DeepSeek send for reasoning models). */
  reasoning?: string;
  finishReason: ChatFinishReason;
}

/** The `error` object of an OpenAI error body. */
export interface OpenAIErrorObject {
  message: string;
  type: string | null;
  param: string | null;
  code: string | null;
}

/** A scripted HTTP error with the OpenAI error body `{error: {message, type, param, code}}`. */
export interface OpenAIErrorStep {
  type: 'api-error';
  label: string;
  status: number;
  error: OpenAIErrorObject;
  /** Seconds, sent as the `retry-after` header (the AI SDK waits that long before retrying). */
  retryAfter?: number;
  /** Milliseconds, sent as the `retry-after-ms` header (preferred by the AI SDK and the openai client). */
  retryAfterMs?: number;
  /** Extra response headers, e.g. `x-ratelimit-remaining-requests`. */
  headers?: Record<string, string>;
  delayMs?: number;
}

/** A step computed from the recorded request it answers (e.g. to echo the tool results sent back). */
export type ChatDynamicStep = DynamicStepOf<OpenAIRecordedRequest, ChatStep>;

/** What the fake server answers to one chat completions request. */
export type ChatStep = ChatMessageStep | OpenAIErrorStep | ChatDynamicStep;

/** A chat step after dynamic steps have been evaluated. */
export type ResolvedChatStep = ChatMessageStep | OpenAIErrorStep;

/** Scripted vectors for one embeddings request: one vector per input. */
export interface EmbeddingsVectorsStep {
  type: 'embeddings';
  label: string;
  vectors: number[][];
  delayMs?: number;
}

/** What the fake server answers to one embeddings request, when embeddings are scripted at all. */
export type EmbeddingsStep = EmbeddingsVectorsStep | OpenAIErrorStep;
