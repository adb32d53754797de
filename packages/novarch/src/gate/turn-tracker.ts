import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tool_use ids of an assistant message in the SDK stream, with the API message they belong to. */
function toolUsesOf(message: SDKMessage): { messageId: string; toolUseIds: string[] } | undefined {
  if (message.type !== 'assistant') return undefined;
  const inner: unknown = message.message;
  if (!isRecord(inner) || typeof inner.id !== 'string' || !Array.isArray(inner.content)) return undefined;
  const toolUseIds = inner.content.flatMap((block: unknown) =>
    isRecord(block) && block.type === 'tool_use' && typeof block.id === 'string' ? [block.id] : [],
  );
  return { messageId: inner.id, toolUseIds };
}

/**
 * Which tool calls the model made together. The CLI streams an assistant message block by block
 * (one SDK message per block, all with the API message's id) and starts a tool as soon as its
 * block is complete, before the next block arrives. So the gate learns a turn's calls from the
 * message stream, not from which hooks happen to be running: a write whose message already
 * carried another call is dispatched alongside it. A call streamed after a write cannot be seen
 * when the write is decided (the write then is judged on the evidence of earlier turns).
 */
export class TurnTracker {
  readonly #messageOf = new Map<string, string>();
  readonly #callsOf = new Map<string, Set<string>>();
  readonly #waiters = new Map<string, Set<() => void>>();
  #observing = false;

  /** True once an assistant message was observed: from then on a write waits to see its own tool_use. */
  get observing(): boolean {
    return this.#observing;
  }

  observe(message: SDKMessage): void {
    const uses = toolUsesOf(message);
    if (!uses) return;
    this.#observing = true;
    let calls = this.#callsOf.get(uses.messageId);
    if (!calls) {
      calls = new Set();
      this.#callsOf.set(uses.messageId, calls);
    }
    for (const id of uses.toolUseIds) {
      calls.add(id);
      this.#messageOf.set(id, uses.messageId);
      for (const wake of this.#waiters.get(id) ?? []) wake();
      this.#waiters.delete(id);
    }
  }

  /** The other calls of the message that made `toolUseId` (as far as it has been streamed). */
  siblingsOf(toolUseId: string): string[] {
    const messageId = this.#messageOf.get(toolUseId);
    const calls = messageId === undefined ? undefined : this.#callsOf.get(messageId);
    return [...(calls ?? [])].filter((id) => id !== toolUseId);
  }

  /**
   * Resolves true once the tool_use `toolUseId` was observed. Its message precedes its hook on
   * the CLI's output, but the SDK hands messages to the caller's loop and hooks to the gate
   * separately, so the hook can come first: wait for the loop to catch up, at most `timeoutMs`.
   */
  waitFor(toolUseId: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.#messageOf.has(toolUseId)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(toolUseId) ?? new Set();
      this.#waiters.set(toolUseId, waiters);
      const finish = (seen: boolean) => {
        clearTimeout(timer);
        waiters.delete(wake);
        signal?.removeEventListener('abort', abort);
        resolve(seen);
      };
      const wake = () => finish(true);
      const abort = () => finish(false);
      const timer = setTimeout(() => finish(this.#messageOf.has(toolUseId)), timeoutMs);
      waiters.add(wake);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** Forgets every turn (the run ended). */
  clear(): void {
    this.#messageOf.clear();
    this.#callsOf.clear();
  }
}
