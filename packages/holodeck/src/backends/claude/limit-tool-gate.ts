import type {
  HookCallbackMatcher,
  HookEvent,
  HookInput,
  HookJSONOutput,
  SDKMessage,
} from '@anthropic-ai/claude-agent-sdk';

/** How long a tool call waits for its response's end to be seen before it runs regardless. */
const RESPONSE_END_DEADLINE_MS = 30_000;

function deny(reason: string): HookJSONOutput {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    },
  };
}

/**
 * Holds each tool call of a run told of its progress (`limits:`) until this process has read the
 * end of the response that asked for it, so the run's limits are checked against that response's
 * final usage before its tools run. Without it the CLI raced the check: the SDK answers a hook or
 * an in-process tool call as soon as it reads it, while the messages before it still wait in the
 * queue the run reads, and under load the CLI ran the tools and asked the model once more after
 * the response that crossed a cost limit (seen in CI: three requests where two were allowed).
 * A call of a run that was stopped is never answered; the process is being stopped.
 *
 * One gate per CLI process; `arm()` binds it to the run or turn in flight (a warm spare is started
 * before the run that takes it is known).
 */
export class LimitToolGate {
  private stopped: AbortSignal | undefined;
  /** Top-level tool calls of the response still streaming. */
  private streamingCalls: string[] = [];
  private streaming = false;
  /** Calls whose response ended, as read by the run. */
  private readonly ended = new Set<string>();
  private readonly waiting = new Map<string, () => void>();
  /** Calls held because the run was stopped: answered `deny` on disarm(). */
  private readonly held = new Set<(output: HookJSONOutput) => void>();

  readonly hooks: Partial<Record<HookEvent, HookCallbackMatcher[]>> = {
    PreToolUse: [{ hooks: [(input, _id, { signal }) => this.beforeTool(input, signal)], onFailure: 'block' }],
  };

  /** The run or turn in flight reports its progress: hold its calls until checked; `signal` stops it. */
  arm(signal: AbortSignal): void {
    this.stopped = signal;
  }

  /** The run or turn is over: calls pass again, and held ones are denied. */
  disarm(): void {
    this.stopped = undefined;
    for (const answer of this.held) answer(deny('The run was stopped at one of its limits.'));
    this.held.clear();
    this.releaseAll();
    // A session's gate lives for all its turns: the ids of a finished turn are never asked again.
    this.ended.clear();
  }

  /** Call with every SDK message, after the run's progress was reported for it. */
  observe(message: SDKMessage): void {
    if (message.type === 'stream_event' && message.parent_tool_use_id === null) {
      if (message.event.type === 'message_start') {
        this.streaming = true;
        this.streamingCalls = [];
      } else if (message.event.type === 'message_stop') {
        this.streaming = false;
        for (const id of this.streamingCalls) this.end(id);
        this.streamingCalls = [];
      }
      return;
    }
    if (message.type === 'assistant') {
      for (const block of message.message.content) {
        if (block.type !== 'tool_use') continue;
        // A subagent's responses stream apart from the agent's: its calls are not held for them.
        if (message.parent_tool_use_id === null && this.streaming) this.streamingCalls.push(block.id);
        else this.end(block.id);
      }
      return;
    }
    if (message.type === 'result') this.releaseAll();
  }

  private end(id: string): void {
    this.ended.add(id);
    this.waiting.get(id)?.();
    this.waiting.delete(id);
  }

  private releaseAll(): void {
    for (const release of this.waiting.values()) release();
    this.waiting.clear();
  }

  private async beforeTool(input: HookInput, signal: AbortSignal): Promise<HookJSONOutput> {
    if (input.hook_event_name !== 'PreToolUse' || !this.stopped) return {};
    await this.responseEnded(input.tool_use_id, signal);
    if (!this.stopped?.aborted) return {};
    return new Promise((resolve) => {
      const answer = (output: HookJSONOutput) => {
        this.held.delete(answer);
        resolve(output);
      };
      this.held.add(answer);
      if (signal.aborted) answer(deny('The run was stopped.'));
      signal.addEventListener('abort', () => answer(deny('The run was stopped.')), { once: true });
    });
  }

  private responseEnded(id: string, signal: AbortSignal): Promise<void> {
    if (this.ended.has(id)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, RESPONSE_END_DEADLINE_MS);
      timer.unref();
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
      const before = this.waiting.get(id);
      this.waiting.set(id, () => {
        before?.();
        done();
      });
    });
  }
}
