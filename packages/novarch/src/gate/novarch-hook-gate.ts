import type {
  HookCallbackMatcher,
  HookEvent,
  HookInput,
  HookJSONOutput,
  SDKMessage,
} from '@anthropic-ai/claude-agent-sdk';
import { NovarchError, NovarchKillError } from '../errors.js';
import { type ActiveSession, currentSession } from '../session/active-session.js';
import { errorMessage } from '../support.js';
import { CallRationales } from './call-rationales.js';
import { NO_OPINION, refuse } from './gate-decisions.js';
import type { GateLatch } from './gate-latch.js';
import { GateRecorder } from './gate-recorder.js';
import { governedEnvironment } from './governed-environment.js';
import type { HoldListener } from './hold-listener.js';
import { agentOf, HOOK_TIMEOUT_HEADROOM_S, hookTimeoutSeconds, toolResultsOf } from './hook-gate-inputs.js';
import { judgeHookWrite, type WriteCall } from './judge-hook-write.js';
import { TurnTracker } from './turn-tracker.js';
import { checkToolKinds, DEFAULT_UNMAPPED_ALLOWLIST, type ToolKind, type WriteSpec } from './write-spec.js';

export interface NovarchHookGateOptions {
  /** Runtime tool names (`mcp__server__tool`, `Bash`, ...) → read or write. */
  toolKinds: Record<string, ToolKind>;
  /** How each write tool becomes an action. */
  writeSpecs: Record<string, WriteSpec>;
  /** Tools allowed without a kind (recorded as evidence); default {ToolSearch}. */
  allowUnmapped?: Iterable<string>;
  /** The governed session; default the current `augur.session`. */
  session?: ActiveSession;
  /** Where the gate warns about lost evidence (default `process.stderr`). */
  warn?: (message: string) => void;
  /**
   * Told when a write is held for an operator (hold id, deadline, the rules that held it) and
   * when the hold is decided, e.g. to show the wait in a chat. It reports; it never decides.
   */
  onHold?: HoldListener;
}

/** How long a read waits for the message stream to show its own tool_use (see TurnTracker). */
const TURN_WAIT_MS = 2_000;

/**
 * Governs every tool call of a Claude Agent SDK run through PreToolUse/PostToolUse hooks.
 * Reads run and become evidence; writes are judged (pass → the tool runs, kill → refused and
 * latched, hold → an operator decides). The gate never throws from a hook: any internal error
 * refuses the call, and its matchers are registered to block when a hook fails.
 */
export class NovarchHookGate implements AsyncDisposable {
  private session: ActiveSession | undefined;
  private recorder: GateRecorder | undefined;
  private latched: GateLatch | undefined;
  private readonly turns = new TurnTracker();
  /** The model's text before each call: a write's rationale when its input has no `reasoning`. */
  private readonly rationales = new CallRationales();
  /** Calls whose PreToolUse passed and that have not finished, with the agent they run in. */
  private readonly inFlight = new Map<string, string>();
  private readonly allowUnmapped: Set<string>;
  /** Own entries only: a tool named "constructor" is not mapped by accident. */
  private readonly kinds: ReadonlyMap<string, ToolKind>;
  private hookTimeoutS: number | undefined;

  constructor(private readonly options: NovarchHookGateOptions) {
    this.allowUnmapped = new Set(options.allowUnmapped ?? DEFAULT_UNMAPPED_ALLOWLIST);
    this.kinds = checkToolKinds(options.toolKinds);
    for (const [tool, kind] of this.kinds) {
      if (kind === 'write' && !options.writeSpecs[tool]) {
        throw new NovarchError(
          `write tool "${tool}" has no WriteSpec: add writeSpecs["${tool}"] with actionType and contextBuilder`,
        );
      }
    }
  }

  /** Binds the gate to its session (the current augur.session unless one was given). */
  async open(): Promise<this> {
    this.session = this.options.session ?? currentSession();
    if (!this.session)
      throw new NovarchError(
        'NovarchHookGate needs a session: open it inside augur.session(...) or pass { session }',
      );
    this.recorder = new GateRecorder(
      this.session,
      this.options.warn ?? ((message) => process.stderr.write(`${message}\n`)),
    );
    return this;
  }

  async close(): Promise<void> {
    await this.recorder?.settle();
    this.inFlight.clear();
    this.turns.clear();
    this.rationales.clear();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * What goes into the SDK's `hooks` option. The hook timeout is the session's hold wait plus a
   * minute; a `timeoutS` that does not strictly outlive the wait is refused, because a matcher
   * that expires first would hand the decision back to the runtime. Every deadline of a write
   * (the judge's budget, the hold's deadline, the last moment it may be let run) counts from its
   * hook's start and ends before this timeout.
   */
  hooksConfig(options: { timeoutS?: number } = {}): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
    const session = this.requireSession();
    const wait = session.record.holdWaitSeconds;
    const timeout = hookTimeoutSeconds(options.timeoutS, wait);
    this.hookTimeoutS = timeout;
    return {
      PreToolUse: [
        { hooks: [(input, _id, { signal }) => this.beforeTool(input, signal)], timeout, onFailure: 'block' },
      ],
      PostToolUse: [{ hooks: [(input) => this.afterTool(input, false)], onFailure: 'block' }],
      PostToolUseFailure: [{ hooks: [(input) => this.afterTool(input, true)], onFailure: 'block' }],
    };
  }

  /**
   * The environment for the agent's CLI (the SDK's `env` option, which replaces the process's):
   * `env` (default this process's) without any `NOVARCH_*` variable (the agent key, an operator
   * token, the store's URL: the agent's shell could otherwise report evidence or decide holds as
   * the gate), with the marker `NOVARCH_GOVERNED_SESSION` set. The operator CLI refuses hold
   * decisions and kills from a process that carries it, so an agent with a shell cannot approve
   * its own writes with `novarch holds approve` (see the README for what this does not stop in
   * local mode).
   */
  agentEnv(env?: Readonly<Record<string, string | undefined>>): Record<string, string> {
    this.requireSession();
    return governedEnvironment(env);
  }

  /**
   * Feed every message of the query loop here (or iterate `gate.track(query)`). The gate learns
   * from them which calls the model made together (a write beside other calls of its message is
   * refused, and so is a call beside a write), and which reads never ran. Run the query with
   * `includePartialMessages: true` for the full guarantee: the partial messages show where each
   * assistant message ends, and a write waits for that end (bounded by its hook's time) before it
   * is judged; without them a call streamed after a write is not known when the write is decided.
   * A read with a tool result but no PostToolUse (the
   * user's permission rules or another hook refused it) is recorded as a refused call, never as
   * evidence. The end of a run releases calls that produced no result.
   */
  observe(message: SDKMessage): void {
    this.turns.observe(message);
    this.rationales.observe(message);
    for (const result of toolResultsOf(message)) {
      this.inFlight.delete(result.id);
      this.recorder?.readRefused(result.id, result.content);
    }
    if (message.type === 'result') {
      this.inFlight.clear();
      this.recorder?.forgetMainThreadReads();
      this.turns.clear();
      this.rationales.clear();
    }
  }

  /** Yields the messages of a query unchanged while observing them (see `observe`). */
  async *track<T extends SDKMessage>(messages: AsyncIterable<T>): AsyncGenerator<T> {
    for await (const message of messages) {
      this.observe(message);
      yield message;
    }
  }

  /** After the query loop: throws NovarchKillError when the session was killed. */
  raiseIfKilled(): void {
    if (this.latched) {
      throw new NovarchKillError({
        sessionId: this.requireSession().record.id,
        ...(this.latched.actionId ? { actionId: this.latched.actionId } : {}),
        citations: this.latched.citations,
      });
    }
  }

  /** The governed session's id (for an operator's tooling; the agent's environment does not carry it). */
  get sessionId(): string {
    return this.requireSession().record.id;
  }

  /** True once the session latched. */
  get killed(): boolean {
    return this.latched !== undefined;
  }

  private requireSession(): ActiveSession {
    if (!this.session)
      throw new NovarchError(
        'NovarchHookGate is not open: use `await using gate = await new NovarchHookGate(...).open()`',
      );
    return this.session;
  }

  private requireRecorder(): GateRecorder {
    this.requireSession();
    if (!this.recorder) throw new NovarchError('NovarchHookGate is not open');
    return this.recorder;
  }

  private latch(latch: GateLatch): void {
    this.latched ??= latch;
  }

  private refuseLatched(call: WriteCall): Promise<HookJSONOutput> {
    const reason = `this session was stopped (${this.latched?.citations.rationale}); no further tool calls run`;
    return this.requireRecorder().refuse(call, reason);
  }

  private async beforeTool(input: HookInput, signal: AbortSignal | undefined): Promise<HookJSONOutput> {
    if (input.hook_event_name !== 'PreToolUse') return NO_OPINION;
    const startedAt = Date.now();
    const call: WriteCall = {
      id: input.tool_use_id,
      toolName: input.tool_name,
      input: input.tool_input,
      agent: agentOf(input),
    };
    try {
      const session = this.requireSession();
      const recorder = this.requireRecorder();
      if (this.latched) return await this.refuseLatched(call);
      const kind = this.kinds.get(input.tool_name);
      // A write's kill check is part of its judgement's first store operation (`proposeAction`),
      // and checked again in the transaction that lets it run: no separate read for it here.
      if (kind !== 'write') {
        const killed = await session.engine.isKilled(session.record.id);
        if (killed) {
          const stop = recorder.latchOfKill(killed, '');
          this.latch(stop.latch);
          return await recorder.refuse(call, stop.reason);
        }
        // Another call of this session may have latched it while this one awaited the store.
        if (this.latched) return await this.refuseLatched(call);
      }
      if (!kind && !this.allowUnmapped.has(input.tool_name))
        return await recorder.refuse(
          call,
          `tool "${input.tool_name}" is not mapped to read or write, so it may not run`,
        );
      if (kind !== 'write') {
        const beside = await this.besideWrite(call, signal);
        if (beside !== undefined) return await recorder.refuse(call, beside);
        this.inFlight.set(call.id, call.agent);
        recorder.startRead(call);
        return NO_OPINION;
      }
      const timeoutS = this.hookTimeoutS ?? session.record.holdWaitSeconds + HOOK_TIMEOUT_HEADROOM_S;
      return await judgeHookWrite(
        {
          session,
          recorder,
          turns: this.turns,
          inFlight: this.inFlight,
          spec: this.options.writeSpecs[input.tool_name],
          latched: () => this.latched,
          latch: (latch) => this.latch(latch),
          onHold: this.options.onHold,
          modelTextBefore: (callId) => this.rationales.textBefore(callId),
        },
        call,
        { startedAt, hookDeadline: startedAt + timeoutS * 1000, signal },
      );
    } catch (error) {
      const reason = `the gate failed (${errorMessage(error)}); refused to be safe`;
      return this.recorder ? this.recorder.refuse(call, reason) : refuse(reason);
    }
  }

  /**
   * Why a read may not run: its assistant message also made a write (which is refused: a write
   * runs on its own), so nothing of that turn runs. Only calls already streamed are known here; a
   * read waits for its own tool_use like a write, but not for the end of its message.
   */
  private async besideWrite(call: WriteCall, signal: AbortSignal | undefined): Promise<string | undefined> {
    if (!this.turns.observing) return undefined;
    if (!(await this.turns.waitFor(call.id, TURN_WAIT_MS, signal))) return undefined;
    const write = this.turns.siblingsOf(call.id).find((sibling) => this.kinds.get(sibling.name) === 'write');
    if (write === undefined) return undefined;
    return `a call may not run beside a write of the same turn (${write.name}, call ${write.id}), and that write is refused; call the write on its own`;
  }

  /** Never throws: a read whose evidence cannot be stored marks the session's evidence incomplete. */
  private async afterTool(input: HookInput, failed: boolean): Promise<HookJSONOutput> {
    if (input.hook_event_name !== 'PostToolUse' && input.hook_event_name !== 'PostToolUseFailure')
      return NO_OPINION;
    this.inFlight.delete(input.tool_use_id);
    const output = input.hook_event_name === 'PostToolUse' ? input.tool_response : input.error;
    await this.recorder?.readRan(input.tool_use_id, output, failed);
    return NO_OPINION;
  }
}
