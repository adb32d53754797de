import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { isRecord } from '../support.js';

/** A tool call the stream showed: its id and tool name. */
interface StreamedCall {
  id: string;
  name: string;
}

/** The tool_use blocks of an assistant message in the SDK stream, with the API message they belong to. */
function toolUsesOf(message: SDKMessage): { messageId: string; calls: StreamedCall[] } | undefined {
  if (message.type !== 'assistant') return undefined;
  const inner: unknown = message.message;
  if (!isRecord(inner) || typeof inner.id !== 'string' || !Array.isArray(inner.content)) return undefined;
  const calls = inner.content.flatMap((block: unknown) =>
    isRecord(block) && block.type === 'tool_use' && typeof block.id === 'string'
      ? [{ id: block.id, name: typeof block.name === 'string' ? block.name : '' }]
      : [],
  );
  return { messageId: inner.id, calls };
}

/** What a partial message (`includePartialMessages`) says about the API message it streams. */
type StreamStep =
  | { type: 'start'; lane: string; messageId: string }
  | { type: 'call'; lane: string; call: StreamedCall }
  | { type: 'stop'; lane: string };

function streamStepOf(message: SDKMessage): StreamStep | undefined {
  if (message.type !== 'stream_event') return undefined;
  const event: unknown = message.event;
  if (!isRecord(event)) return undefined;
  // One lane per agent: the main thread's messages and each subagent's stream side by side.
  const lane = typeof message.parent_tool_use_id === 'string' ? message.parent_tool_use_id : '';
  if (event.type === 'message_start' && isRecord(event.message) && typeof event.message.id === 'string')
    return { type: 'start', lane, messageId: event.message.id };
  if (event.type === 'message_stop') return { type: 'stop', lane };
  const block = event.content_block;
  if (event.type === 'content_block_start' && isRecord(block) && block.type === 'tool_use') {
    if (typeof block.id !== 'string') return undefined;
    return {
      type: 'call',
      lane,
      call: { id: block.id, name: typeof block.name === 'string' ? block.name : '' },
    };
  }
  return undefined;
}

/** How the wait for a call's message ended. */
export type MessageEnd =
  /** The message ended: every call it made is known. */
  | 'ended'
  /** The stream gives no message ends (no partial messages): the calls streamed so far are known. */
  | 'unknown'
  /** The message did not end before the deadline. */
  | 'timed-out'
  | 'aborted';

/**
 * Which tool calls the model made together. The CLI streams an assistant message block by block
 * (one SDK message per block, all with the API message's id) and starts a tool as soon as its
 * block is complete, before the next block arrives. So the gate learns a turn's calls from the
 * message stream, not from which hooks happen to be running.
 *
 * With partial messages (`includePartialMessages: true`) the stream also shows where each API
 * message starts and ends (`message_start` … `message_stop`): a write then waits for the end of
 * its message and sees every call made beside it, including those streamed after it. Without
 * them, a call streamed after a write cannot be seen when the write is decided.
 */
export class TurnTracker {
  readonly #messageOf = new Map<string, string>();
  readonly #callsOf = new Map<string, Map<string, string>>();
  /** Messages whose start the stream showed (their end will be shown too). */
  readonly #streamed = new Set<string>();
  readonly #ended = new Set<string>();
  /** The message each lane is streaming. */
  readonly #current = new Map<string, string>();
  readonly #waiters = new Set<() => void>();
  #observing = false;

  /** True once an assistant message was observed: from then on a write waits to see its own tool_use. */
  get observing(): boolean {
    return this.#observing;
  }

  observe(message: SDKMessage): void {
    const step = streamStepOf(message);
    if (step) {
      this.#observeStep(step);
      return;
    }
    const uses = toolUsesOf(message);
    if (!uses) return;
    this.#observing = true;
    for (const call of uses.calls) this.#add(uses.messageId, call);
    this.#wake();
  }

  #observeStep(step: StreamStep): void {
    this.#observing = true;
    if (step.type === 'start') {
      this.#current.set(step.lane, step.messageId);
      this.#streamed.add(step.messageId);
      this.#callsOf.set(step.messageId, this.#callsOf.get(step.messageId) ?? new Map());
      return;
    }
    const messageId = this.#current.get(step.lane);
    if (messageId === undefined) return;
    if (step.type === 'call') this.#add(messageId, step.call);
    else {
      this.#ended.add(messageId);
      this.#current.delete(step.lane);
    }
    this.#wake();
  }

  #add(messageId: string, call: StreamedCall): void {
    let calls = this.#callsOf.get(messageId);
    if (!calls) {
      calls = new Map();
      this.#callsOf.set(messageId, calls);
    }
    calls.set(call.id, call.name || calls.get(call.id) || '');
    this.#messageOf.set(call.id, messageId);
  }

  #wake(): void {
    for (const wake of [...this.#waiters]) wake();
  }

  /** The other calls of the message that made `toolUseId` (as far as it has been streamed), with their tools. */
  siblingsOf(toolUseId: string): StreamedCall[] {
    const messageId = this.#messageOf.get(toolUseId);
    const calls = messageId === undefined ? undefined : this.#callsOf.get(messageId);
    return [...(calls ?? [])].filter(([id]) => id !== toolUseId).map(([id, name]) => ({ id, name }));
  }

  /**
   * Resolves true once the tool_use `toolUseId` was observed. Its message precedes its hook on
   * the CLI's output, but the SDK hands messages to the caller's loop and hooks to the gate
   * separately, so the hook can come first: wait for the loop to catch up, at most `timeoutMs`.
   */
  async waitFor(toolUseId: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    const outcome = await this.#until(() => this.#messageOf.has(toolUseId), Date.now() + timeoutMs, signal);
    return outcome === 'met';
  }

  /**
   * Waits for the end of the message that made `toolUseId` (which must have been observed), at
   * most until `deadline` (epoch ms): then every call of that message is known.
   */
  async waitForMessageEnd(toolUseId: string, deadline: number, signal?: AbortSignal): Promise<MessageEnd> {
    const messageId = this.#messageOf.get(toolUseId);
    if (messageId === undefined || !this.#streamed.has(messageId)) return 'unknown';
    const outcome = await this.#until(() => this.#ended.has(messageId), deadline, signal);
    return outcome === 'met' ? 'ended' : outcome;
  }

  #until(
    condition: () => boolean,
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<'met' | 'timed-out' | 'aborted'> {
    if (condition()) return Promise.resolve('met');
    if (signal?.aborted) return Promise.resolve('aborted');
    return new Promise((resolve) => {
      const finish = (outcome: 'met' | 'timed-out' | 'aborted') => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        signal?.removeEventListener('abort', abort);
        resolve(outcome);
      };
      const check = () => {
        if (condition()) finish('met');
      };
      const abort = () => finish('aborted');
      const timer = setTimeout(
        () => finish(condition() ? 'met' : 'timed-out'),
        Math.max(0, deadline - Date.now()),
      );
      this.#waiters.add(check);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** Forgets every turn (the run ended). */
  clear(): void {
    this.#messageOf.clear();
    this.#callsOf.clear();
    this.#streamed.clear();
    this.#ended.clear();
    this.#current.clear();
  }
}
