import { defaultOpenAIError } from './openai-error-body.js';
import type { OpenAIRecordedRequest } from './openai-recorded-request.js';
import type {
  ChatDynamicStep,
  ChatMessageStep,
  ChatStep,
  ChatStepOptions,
  ChatToolCall,
  EmbeddingsVectorsStep,
  OpenAIErrorObject,
  OpenAIErrorStep,
} from './openai-script-step.js';

/** Options of `chatReply()`. */
export interface ChatReplyOptions extends ChatStepOptions {
  /** Reasoning text sent as `reasoning_content` before the reply (Ollama, vLLM, DeepSeek). */
  reasoning?: string;
}

/** Options of `chatToolCall()` / `chatToolCalls()`. */
export interface ChatToolCallOptions extends ChatStepOptions {
  /** Text content sent along with the tool calls. */
  text?: string;
}

/** What `chatMessage()` sends. */
export interface ChatMessageContent {
  content?: string | null;
  toolCalls?: ChatToolCall[];
  reasoning?: string;
}

function shorten(text: string, max = 30): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine);
}

function pickStepOptions(options: ChatStepOptions): Omit<ChatStepOptions, 'finishReason'> {
  const picked: Omit<ChatStepOptions, 'finishReason'> = {};
  if (options.usage !== undefined) picked.usage = options.usage;
  if (options.delayMs !== undefined) picked.delayMs = options.delayMs;
  if (options.chunkDelayMs !== undefined) picked.chunkDelayMs = options.chunkDelayMs;
  if (options.model !== undefined) picked.model = options.model;
  return picked;
}

/**
 * An assistant message with any mix of content, tool calls and reasoning. finish_reason is
 * `tool_calls` when it has tool calls, else `stop`, unless `options.finishReason` says otherwise.
 */
export function chatMessage(message: ChatMessageContent, options: ChatStepOptions = {}): ChatMessageStep {
  const toolCalls = message.toolCalls ?? [];
  const content = message.content ?? null;
  if (content === null && toolCalls.length === 0) {
    throw new Error('chatMessage() needs content or at least one tool call');
  }
  const finishReason = options.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
  const parts = [content === null ? [] : ['content'], toolCalls.map((call) => call.name)].flat();
  const step: ChatMessageStep = {
    type: 'chat-message',
    label: `chatMessage([${parts.join(', ')}], ${finishReason})`,
    content,
    toolCalls,
    finishReason,
    ...pickStepOptions(options),
  };
  if (message.reasoning !== undefined) step.reasoning = message.reasoning;
  return step;
}

/** An assistant text reply, finish_reason `stop` (or `options.finishReason`, e.g. `length`). */
export function chatReply(text: string, options: ChatReplyOptions = {}): ChatMessageStep {
  const message: ChatMessageContent = { content: text };
  if (options.reasoning !== undefined) message.reasoning = options.reasoning;
  return { ...chatMessage(message, options), label: `chatReply(${shorten(text)})` };
}

/**
 * A structured reply: `value` as JSON text content, the way a model answers a request with
 * `response_format: {type: 'json_schema', ...}` (or `json_object`).
 */
export function chatJson(value: unknown, options: ChatStepOptions = {}): ChatMessageStep {
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error('chatJson() needs a JSON-serialisable value');
  return { ...chatMessage({ content: text }, options), label: `chatJson(${shorten(text)})` };
}

/** Several tool calls in one assistant message (optionally with text), finish_reason `tool_calls`. */
export function chatToolCalls(calls: ChatToolCall[], options: ChatToolCallOptions = {}): ChatMessageStep {
  if (calls.length === 0) throw new Error('chatToolCalls() needs at least one tool call');
  const step = chatMessage({ content: options.text ?? null, toolCalls: calls }, options);
  return { ...step, label: `chatToolCall(${calls.map((call) => call.name).join(', ')})` };
}

/** One tool call (optionally with text), finish_reason `tool_calls`. */
export function chatToolCall(
  name: string,
  args: Record<string, unknown> | string,
  options: ChatToolCallOptions & { id?: string } = {},
): ChatMessageStep {
  const call: ChatToolCall = { name, arguments: args };
  if (options.id !== undefined) call.id = options.id;
  return chatToolCalls([call], options);
}

/** A step computed from the recorded request it answers (sync or async). */
export function chatRespond(
  build: (request: OpenAIRecordedRequest) => ChatStep | Promise<ChatStep>,
  label = 'chatRespond(…)',
): ChatDynamicStep {
  return { type: 'dynamic', label, build };
}

/** Options of `openaiError()`. */
export interface OpenAIErrorOptions {
  /** Seconds, sent as `retry-after`. */
  retryAfter?: number;
  /** Milliseconds, sent as `retry-after-ms`. */
  retryAfterMs?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
  delayMs?: number;
}

/**
 * An HTTP error answer with OpenAI's body `{error: {message, type, param, code}}`, for chat
 * or embeddings scripts. Fields left out take what the real API sends for that status, e.g.
 * `openaiError(429, {}, {retryAfter: 1})` is a `rate_limit_exceeded` with `retry-after: 1`.
 */
export function openaiError(
  status: number,
  error: Partial<OpenAIErrorObject> = {},
  options: OpenAIErrorOptions = {},
): OpenAIErrorStep {
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    throw new Error(`openaiError() needs an HTTP error status (400-599), got ${status}`);
  }
  const body: OpenAIErrorObject = { ...defaultOpenAIError(status), ...error };
  const step: OpenAIErrorStep = {
    type: 'api-error',
    label: `openaiError(${status}, ${body.code ?? body.type ?? 'no code'})`,
    status,
    error: body,
  };
  if (options.retryAfter !== undefined) step.retryAfter = options.retryAfter;
  if (options.retryAfterMs !== undefined) step.retryAfterMs = options.retryAfterMs;
  if (options.headers !== undefined) step.headers = options.headers;
  if (options.delayMs !== undefined) step.delayMs = options.delayMs;
  return step;
}

/** Scripted vectors for the next embeddings request, one per input (instead of the hashed defaults). */
export function embeddingsReply(
  vectors: number[][],
  options: { delayMs?: number } = {},
): EmbeddingsVectorsStep {
  if (vectors.length === 0 || vectors.some((vector) => vector.some((value) => !Number.isFinite(value)))) {
    throw new Error('embeddingsReply() needs at least one vector of finite numbers');
  }
  const step: EmbeddingsVectorsStep = {
    type: 'embeddings',
    label: `embeddingsReply(${vectors.length} vector(s) of ${vectors[0]?.length ?? 0})`,
    vectors,
  };
  if (options.delayMs !== undefined) step.delayMs = options.delayMs;
  return step;
}
