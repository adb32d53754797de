import type { RecordedRequest } from '../request/recorded-request.js';

/** Why the fake model stopped, as the Messages API spells it. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal';

/** One content block of a scripted assistant message. */
export type ResponseBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  /** `id` is generated (`toolu_fake_<request>_<block>`) when left out. */
  | { type: 'tool_use'; id?: string; name: string; input: Record<string, unknown> };

/** Token counts to report; anything left out is estimated from the request and reply sizes. */
export interface StepUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** Options every message step accepts. */
export interface StepOptions {
  /** Usage reported in `message_start` / `message_delta` (or the JSON message). */
  usage?: StepUsage;
  /** Wait this long before answering (on top of the server-wide `latencyMs`). */
  delayMs?: number;
  /** Wait this long between streamed events, to make token streaming visible in time. */
  chunkDelayMs?: number;
  /** Model name to answer with; defaults to echoing the request's `model`. */
  model?: string;
}

/** A scripted assistant message (streamed as SSE when the request asks for `stream: true`). */
export interface MessageStep extends StepOptions {
  type: 'message';
  /** Short description used in `assertComplete()` failures. */
  label: string;
  content: ResponseBlock[];
  stopReason: StopReason;
}

/** A scripted HTTP error with the Anthropic error body `{type:"error", error:{type, message}}`. */
export interface ApiErrorStep {
  type: 'api-error';
  label: string;
  status: number;
  errorType: string;
  message: string;
  /** Seconds, sent as the `retry-after` header. */
  retryAfter?: number;
  /** Sent as the `x-should-retry` header when set. */
  shouldRetry?: boolean;
  delayMs?: number;
}

/** A step computed from the request it answers (e.g. to echo the tool_result the CLI sent back). */
export interface DynamicStep {
  type: 'dynamic';
  label: string;
  build: (request: RecordedRequest) => ScriptStep | Promise<ScriptStep>;
}

/** What the fake server answers to one agent-loop request. */
export type ScriptStep = MessageStep | ApiErrorStep | DynamicStep;

/** A step after dynamic steps have been evaluated. */
export type ResolvedStep = MessageStep | ApiErrorStep;
