import type { MessageStep, StopReason } from '../script/script-step.js';
import { estimateTokens } from './estimate-tokens.js';

/** A content block of an answered message (tool_use ids filled in). */
export type OutputBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** Usage as the Messages API reports it. */
export interface MessageUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  service_tier: 'standard';
}

/** A complete Messages API message (the non-streaming answer). */
export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: OutputBlock[];
  stop_reason: StopReason;
  stop_sequence: null;
  usage: MessageUsage;
}

/** What a message answer depends on besides its step. */
export interface MessageContext {
  /** Sequence number of the request, used for deterministic ids. */
  sequence: number;
  /** The `model` of the request, echoed unless the step names one. */
  requestModel: string;
  /** Length of the raw request body, for the input token estimate. */
  requestBodyLength: number;
}

function blockText(block: OutputBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'thinking':
      return block.thinking;
    case 'tool_use':
      return block.name + JSON.stringify(block.input);
  }
}

/** Turns a scripted message step into the message the API would return. */
export function buildMessage(step: MessageStep, context: MessageContext): AnthropicMessage {
  const content = step.content.map((block, index): OutputBlock => {
    if (block.type !== 'tool_use') return { ...block };
    return {
      type: 'tool_use',
      id: block.id ?? `toolu_fake_${context.sequence}_${index}`,
      name: block.name,
      input: block.input,
    };
  });
  return {
    id: `msg_fake_${context.sequence}`,
    type: 'message',
    role: 'assistant',
    model: step.model ?? context.requestModel,
    content,
    stop_reason: step.stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: step.usage?.input_tokens ?? Math.ceil(context.requestBodyLength / 4),
      output_tokens: step.usage?.output_tokens ?? estimateTokens(content.map(blockText).join('')),
      cache_creation_input_tokens: step.usage?.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: step.usage?.cache_read_input_tokens ?? 0,
      service_tier: 'standard',
    },
  };
}
