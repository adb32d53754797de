import type { RecordedRequest } from '../request/recorded-request.js';
import type {
  ApiErrorStep,
  DynamicStep,
  MessageStep,
  ResponseBlock,
  ScriptStep,
  StepOptions,
  StopReason,
} from './script-step.js';

/** Options of `reply()`. */
export interface ReplyOptions extends StepOptions {
  /** Prepend a thinking block with this text (and a fake signature). */
  thinking?: string;
}

/** Options of `toolUse()` / `toolUses()`. */
export interface ToolUseOptions extends StepOptions {
  /** Text block sent before the tool_use block(s). */
  text?: string;
}

/** One tool call of `toolUses()`. */
export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  /** Defaults to a generated `toolu_fake_<request>_<block>`. */
  id?: string;
}

/** Options of `message()`. */
export interface MessageOptions extends StepOptions {
  stopReason?: StopReason;
}

/** Signature attached to scripted thinking blocks (the CLI keeps it and sends it back verbatim). */
export const FAKE_THINKING_SIGNATURE = 'fake-anthropic-signature';

function shorten(text: string, max = 30): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine);
}

function pickStepOptions(options: StepOptions): StepOptions {
  const picked: StepOptions = {};
  if (options.usage !== undefined) picked.usage = options.usage;
  if (options.delayMs !== undefined) picked.delayMs = options.delayMs;
  if (options.chunkDelayMs !== undefined) picked.chunkDelayMs = options.chunkDelayMs;
  if (options.model !== undefined) picked.model = options.model;
  return picked;
}

/** An assistant message made of the given blocks (stop_reason `end_turn`, or `tool_use` if it has one). */
export function message(content: ResponseBlock[], options: MessageOptions = {}): MessageStep {
  const hasToolUse = content.some((block) => block.type === 'tool_use');
  const stopReason = options.stopReason ?? (hasToolUse ? 'tool_use' : 'end_turn');
  return {
    type: 'message',
    label: `message([${content.map((block) => block.type).join(', ')}], ${stopReason})`,
    content,
    stopReason,
    ...pickStepOptions(options),
  };
}

/** An assistant text reply, stop_reason `end_turn`. */
export function reply(text: string, options: ReplyOptions = {}): MessageStep {
  const content: ResponseBlock[] = [];
  if (options.thinking !== undefined) {
    content.push({ type: 'thinking', thinking: options.thinking, signature: FAKE_THINKING_SIGNATURE });
  }
  content.push({ type: 'text', text });
  const label =
    options.thinking === undefined ? `reply(${shorten(text)})` : `thinking+reply(${shorten(text)})`;
  return { ...message(content, options), label };
}

/** A thinking block followed by a text reply. */
export function thinking(thinkingText: string, then: string, options: StepOptions = {}): MessageStep {
  return reply(then, { ...options, thinking: thinkingText });
}

/** Several tool_use blocks in one assistant message (optionally after a text block), stop_reason `tool_use`. */
export function toolUses(calls: ToolCall[], options: ToolUseOptions = {}): MessageStep {
  if (calls.length === 0) throw new Error('toolUses() needs at least one tool call');
  const content: ResponseBlock[] = [];
  if (options.text !== undefined) content.push({ type: 'text', text: options.text });
  for (const call of calls) {
    const block: ResponseBlock = { type: 'tool_use', name: call.name, input: call.input };
    if (call.id !== undefined) block.id = call.id;
    content.push(block);
  }
  return {
    ...message(content, { ...options, stopReason: 'tool_use' }),
    label: `toolUse(${calls.map((call) => call.name).join(', ')})`,
  };
}

/** One tool call (optionally after a text block), stop_reason `tool_use`. */
export function toolUse(
  name: string,
  input: Record<string, unknown>,
  options: ToolUseOptions & { id?: string } = {},
): MessageStep {
  const call: ToolCall = { name, input };
  if (options.id !== undefined) call.id = options.id;
  return toolUses([call], options);
}

/** Options of `apiError()`. */
export interface ApiErrorOptions {
  /** Seconds, sent as `retry-after`. */
  retryAfter?: number;
  /** Sent as `x-should-retry: true|false`. */
  shouldRetry?: boolean;
  delayMs?: number;
}

/** An HTTP error answer, e.g. `apiError(401, {type: 'authentication_error', message: 'invalid x-api-key'})`. */
export function apiError(
  status: number,
  error: { type: string; message: string },
  options: ApiErrorOptions = {},
): ApiErrorStep {
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    throw new Error(`apiError() needs an HTTP error status (400-599), got ${status}`);
  }
  const step: ApiErrorStep = {
    type: 'api-error',
    label: `apiError(${status}, ${error.type})`,
    status,
    errorType: error.type,
    message: error.message,
  };
  if (options.retryAfter !== undefined) step.retryAfter = options.retryAfter;
  if (options.shouldRetry !== undefined) step.shouldRetry = options.shouldRetry;
  if (options.delayMs !== undefined) step.delayMs = options.delayMs;
  return step;
}

/** A step computed from the recorded request it answers. */
export function respond(
  build: (request: RecordedRequest) => ScriptStep | Promise<ScriptStep>,
  label = 'respond(…)',
): DynamicStep {
  return { type: 'dynamic', label, build };
}
