import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';

/** At most this much of the model's text is kept as a write's rationale: its end, nearest the call. */
export const MAX_RATIONALE_CHARS = 4_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A write's rationale, as the action (and its hold) carries it: the tool input's `reasoning` field
 * when the tool has one, else the text the model wrote before the call in the same message (what
 * it said it was about to do), trimmed and cut to its last `MAX_RATIONALE_CHARS`. Undefined when
 * neither says anything.
 */
export function rationaleOf(input: unknown, modelText: string | undefined): string | undefined {
  if (isRecord(input) && typeof input.reasoning === 'string' && input.reasoning.trim() !== '') return input.reasoning;
  const text = modelText?.trim();
  if (!text) return undefined;
  return text.length > MAX_RATIONALE_CHARS ? `…${text.slice(-MAX_RATIONALE_CHARS)}` : text;
}

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
