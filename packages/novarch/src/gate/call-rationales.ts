import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { isRecord } from '../support.js';

/**
 * The text the model wrote before each tool call of the Claude Agent SDK's message stream: the
 * text blocks of the same API message that come before the call's `tool_use` block. The CLI
 * streams an assistant message block by block (one SDK message per block, all with the API
 * message's id), so text is gathered per message and per agent (the main thread, each subagent).
 */
export class CallRationales {
  /** Per agent lane: the API message being streamed and its text so far. */
  readonly #lanes = new Map<string, { messageId: string; text: string[] }>();
  readonly #byCall = new Map<string, string>();

  observe(message: SDKMessage): void {
    if (message.type !== 'assistant') return;
    const inner: unknown = message.message;
    if (!isRecord(inner) || typeof inner.id !== 'string' || !Array.isArray(inner.content)) return;
    const lane = typeof message.parent_tool_use_id === 'string' ? message.parent_tool_use_id : '';
    let state = this.#lanes.get(lane);
    if (state?.messageId !== inner.id) {
      state = { messageId: inner.id, text: [] };
      this.#lanes.set(lane, state);
    }
    for (const block of inner.content as unknown[]) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') state.text.push(block.text);
      else if (block.type === 'tool_use' && typeof block.id === 'string')
        this.#byCall.set(block.id, state.text.join('\n\n'));
    }
  }

  /** The model's text before the call with this `tool_use` id, if the stream showed it. */
  textBefore(callId: string): string | undefined {
    return this.#byCall.get(callId);
  }

  /** At the end of a run: nothing carries over into the next. */
  clear(): void {
    this.#lanes.clear();
    this.#byCall.clear();
  }
}
