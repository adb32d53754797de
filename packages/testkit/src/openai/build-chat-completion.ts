import { estimateTokens } from '../wire/estimate-tokens.js';
import type { ChatFinishReason, ChatMessageStep } from './openai-script-step.js';

/** A tool call of an answered message (id filled in, arguments as JSON text). */
export interface OutputToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** The assistant message of a chat completion. */
export interface ChatCompletionMessage {
  role: 'assistant';
  content: string | null;
  refusal: null;
  tool_calls?: OutputToolCall[];
  reasoning_content?: string;
}

/** Usage as Chat Completions reports it. */
export interface ChatCompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

/** A complete `chat.completion` object (the non-streaming answer). */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: [{ index: 0; message: ChatCompletionMessage; logprobs: null; finish_reason: ChatFinishReason }];
  usage: ChatCompletionUsage;
}

/** What a completion depends on besides its step. */
export interface CompletionContext {
  /** Sequence number of the request, used for deterministic ids. */
  sequence: number;
  /** The model to echo unless the step names one. */
  requestModel: string;
  /** Length of the raw request body, for the prompt token estimate. */
  requestBodyLength: number;
}

function outputToolCalls(step: ChatMessageStep, sequence: number): OutputToolCall[] {
  return step.toolCalls.map((call, index) => ({
    id: call.id ?? `call_fake_${sequence}_${index}`,
    type: 'function',
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
}

function usageOf(step: ChatMessageStep, toolCalls: OutputToolCall[], context: CompletionContext) {
  const visibleText =
    (step.content ?? '') + toolCalls.map((call) => call.function.name + call.function.arguments).join('');
  const reasoningTokens =
    step.usage?.reasoning_tokens ?? (step.reasoning === undefined ? 0 : estimateTokens(step.reasoning));
  const promptTokens = step.usage?.prompt_tokens ?? Math.ceil(context.requestBodyLength / 4);
  const completionTokens = step.usage?.completion_tokens ?? estimateTokens(visibleText) + reasoningTokens;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: step.usage?.cached_tokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** Turns a scripted message step into the `chat.completion` the API would return. */
export function buildChatCompletion(step: ChatMessageStep, context: CompletionContext): ChatCompletion {
  const toolCalls = outputToolCalls(step, context.sequence);
  const message: ChatCompletionMessage = { role: 'assistant', content: step.content, refusal: null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (step.reasoning !== undefined) message.reasoning_content = step.reasoning;
  return {
    id: `chatcmpl-fake-${context.sequence}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: step.model ?? context.requestModel,
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, message, logprobs: null, finish_reason: step.finishReason }],
    usage: usageOf(step, toolCalls, context),
  };
}
