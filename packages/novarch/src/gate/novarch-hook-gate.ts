import type {
  HookCallbackMatcher,
  HookEvent,
  HookInput,
  HookJSONOutput,
  SDKMessage,
} from '@anthropic-ai/claude-agent-sdk';
import { type ActiveSession, augur } from '../augur/augur-session.js';
import { NovarchError, NovarchKillError } from '../errors.js';
import type { Citations, SessionRecord } from '../model/records.js';
import { NO_OPINION, refuse } from './gate-decisions.js';
import { DEFAULT_UNMAPPED_ALLOWLIST, type ToolKind, type WriteSpec } from './write-spec.js';

export interface NovarchHookGateOptions {
  /** Runtime tool names (`mcp__server__tool`, `Bash`, ...) → read or write. */
  toolKinds: Record<string, ToolKind>;
  /** How each write tool becomes an action. */
  writeSpecs: Record<string, WriteSpec>;
  /** Tools allowed without a kind (recorded as evidence); default {ToolSearch}. */
  allowUnmapped?: Iterable<string>;
  /** The governed session; default the current `augur.session`. */
  session?: ActiveSession;
}

/** Headroom of the hook timeout over the hold wait, so the gate's own fail-close fires first. */
const HOOK_TIMEOUT_HEADROOM_S = 60;

interface PendingRead {
  toolName: string;
  input: unknown;
  startedAt: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tool_result blocks of a user message in the SDK stream: what the model was sent back. */
function toolResultsOf(message: SDKMessage): { id: string; content: unknown; isError: boolean }[] {
  if (message.type !== 'user') return [];
  const content: unknown = message.message.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: unknown) =>
    isRecord(block) && block.type === 'tool_result' && typeof block.tool_use_id === 'string'
      ? [{ id: block.tool_use_id, content: block.content, isError: block.is_error === true }]
      : [],
  );
}

/**
 * Governs every tool call of a Claude Agent SDK run through PreToolUse/PostToolUse hooks.
 * Reads run and become evidence; writes are judged (pass → the tool runs, kill → refused and
 * latched, hold → an operator decides). The gate never throws from a hook: any internal error
 * refuses the call, and its matchers are registered to block when a hook fails.
 */
export class NovarchHookGate implements AsyncDisposable {
  private session: ActiveSession | undefined;
  private latched: Citations | undefined;
  private latchedActionId: string | undefined;
  private readonly reads = new Map<string, PendingRead>();
  private readonly inFlight = new Set<string>();
  private readonly evidenceWrites = new Set<Promise<void>>();
  private readonly allowUnmapped: Set<string>;

  constructor(private readonly options: NovarchHookGateOptions) {
    this.allowUnmapped = new Set(options.allowUnmapped ?? DEFAULT_UNMAPPED_ALLOWLIST);
    for (const [tool, kind] of Object.entries(options.toolKinds)) {
      if (kind === 'write' && !options.writeSpecs[tool]) {
        throw new NovarchError(
          `write tool "${tool}" has no WriteSpec: add writeSpecs["${tool}"] with actionType and contextBuilder`,
        );
      }
    }
  }

  /** Binds the gate to its session (the current augur.session unless one was given). */
  async open(): Promise<this> {
    this.session = this.options.session ?? augur.current();
    if (!this.session)
      throw new NovarchError(
        'NovarchHookGate needs a session: open it inside augur.session(...) or pass { session }',
      );
    return this;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.evidenceWrites]);
    this.reads.clear();
    this.inFlight.clear();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * What goes into the SDK's `hooks` option. The hook timeout is the session's hold wait plus a
   * minute; a `timeoutS` that does not strictly outlive the wait is refused, because a matcher
   * that expires first would hand the decision back to the runtime.
   */
  hooksConfig(options: { timeoutS?: number } = {}): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
    const session = this.requireSession();
    const wait = session.record.holdWaitSeconds;
    if (options.timeoutS !== undefined && options.timeoutS <= wait) {
      throw new NovarchError(
        `hooksConfig timeoutS ${options.timeoutS} does not outlive this session's hold wait of ${wait} s; use more than ${wait} (the default is ${wait + HOOK_TIMEOUT_HEADROOM_S})`,
      );
    }
    const timeout = options.timeoutS ?? wait + HOOK_TIMEOUT_HEADROOM_S;
    return {
      PreToolUse: [{ hooks: [(input) => this.beforeTool(input)], timeout, onFailure: 'block' }],
      PostToolUse: [{ hooks: [(input) => this.afterTool(input, false)], onFailure: 'block' }],
      PostToolUseFailure: [{ hooks: [(input) => this.afterTool(input, true)], onFailure: 'block' }],
    };
  }

  /**
   * Feed every message of the query loop here (or iterate `gate.track(query)`). The hooks alone
   * miss reads that never reach PostToolUse: a call the user's permission rules deny, or one
   * interrupted mid-flight. Their tool results in the message stream complete the evidence, and
   * the end of a run releases calls that produced no result, so a later write is not refused
   * as running alongside them.
   */
  observe(message: SDKMessage): void {
    for (const result of toolResultsOf(message)) {
      this.inFlight.delete(result.id);
      const read = this.reads.get(result.id);
      if (!read) continue;
      this.reads.delete(result.id);
      this.storeEvidence(read, result.content, result.isError);
    }
    if (message.type === 'result') {
      this.inFlight.clear();
      this.reads.clear();
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
        ...(this.latchedActionId ? { actionId: this.latchedActionId } : {}),
        citations: this.latched,
      });
    }
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

  private latch(citations: Citations, actionId?: string): void {
    this.latched ??= citations;
    this.latchedActionId ??= actionId;
  }

  private async beforeTool(input: HookInput): Promise<HookJSONOutput> {
    try {
      if (input.hook_event_name !== 'PreToolUse') return NO_OPINION;
      const session = this.requireSession();
      if (this.latched) return this.refuseLatched();
      const killed = await session.engine.isKilled(session.record.id);
      if (killed) return this.latchOperatorKill(killed, 'an operator killed this session');
      // Another call of this session may have latched it while this one awaited the store.
      if (this.latched) return this.refuseLatched();
      const kind = this.options.toolKinds[input.tool_name];
      if (!kind) {
        if (!this.allowUnmapped.has(input.tool_name))
          return refuse(`tool "${input.tool_name}" is not mapped to read or write, so it may not run`);
        return this.startRead(input.tool_use_id, input.tool_name, input.tool_input);
      }
      if (kind === 'read') return this.startRead(input.tool_use_id, input.tool_name, input.tool_input);
      return await this.judgeWrite(session, input.tool_use_id, input.tool_name, input.tool_input);
    } catch (error) {
      return refuse(
        `the gate failed (${error instanceof Error ? error.message : String(error)}); refused to be safe`,
      );
    }
  }

  private refuseLatched(): HookJSONOutput {
    return refuse(`this session was stopped (${this.latched?.rationale}); no further tool calls run`);
  }

  private latchOperatorKill(killed: SessionRecord, reason: string): HookJSONOutput {
    this.latch({
      ruleIds: [],
      evidenceIds: [],
      rationale: `killed by an operator: ${killed.killReason ?? 'no reason given'}`,
    });
    return refuse(reason);
  }

  /** An approved write runs unless the session was stopped (here or by an operator) during the hold. */
  private async allowApprovedWrite(session: ActiveSession): Promise<HookJSONOutput> {
    if (this.latched) return this.refuseLatched();
    const killed = await session.engine.isKilled(session.record.id);
    if (killed)
      return this.latchOperatorKill(killed, 'an operator killed this session while this write was held');
    return NO_OPINION;
  }

  private startRead(id: string, toolName: string, toolInput: unknown): HookJSONOutput {
    this.reads.set(id, { toolName, input: toolInput, startedAt: new Date().toISOString() });
    this.inFlight.add(id);
    return NO_OPINION;
  }

  private async judgeWrite(
    session: ActiveSession,
    id: string,
    toolName: string,
    toolInput: unknown,
  ): Promise<HookJSONOutput> {
    // A write must not be judged on partial evidence, nor slip past a sibling's kill.
    if (this.inFlight.size > 0)
      return refuse('a write may not run alongside other tool calls of the same turn; call it on its own');
    this.inFlight.add(id);
    try {
      // Evidence observed from the message stream may still be on its way to the store.
      await Promise.allSettled([...this.evidenceWrites]);
      const spec = this.options.writeSpecs[toolName];
      if (!spec || !isRecord(toolInput))
        return refuse(`write "${toolName}" has no usable input or WriteSpec`);
      let context: ReturnType<WriteSpec['contextBuilder']>;
      try {
        context = spec.contextBuilder(toolInput);
      } catch (error) {
        return refuse(
          `the input of "${toolName}" does not fit its WriteSpec (${error instanceof Error ? error.message : String(error)})`,
        );
      }
      const reasoning = typeof toolInput.reasoning === 'string' ? toolInput.reasoning : undefined;
      const decision = await session.engine.decide(session.record, {
        actionType: spec.actionType,
        toolName,
        input: toolInput,
        context,
        ...(reasoning !== undefined ? { reasoning } : {}),
      });
      const { citations } = decision.verdict;
      if (decision.verdict.kind === 'pass') return this.latched ? this.refuseLatched() : NO_OPINION;
      if (decision.verdict.kind === 'kill') {
        this.latch(citations, decision.action.id);
        await session.engine.store.killSession(session.record.id, citations.rationale);
        return refuse(`refused: ${citations.rationale}`);
      }
      if (!decision.hold) return refuse('held without a hold record; refused to be safe');
      const hold = await session.engine.awaitHold(decision.hold);
      if (hold.status === 'approved') return await this.allowApprovedWrite(session);
      if (hold.status === 'denied')
        return refuse(`an operator denied this action: ${hold.rationale ?? 'no rationale given'}`);
      const rationale =
        hold.status === 'skipped' ? 'an operator skipped the hold' : 'no operator decided the hold in time';
      this.latch({ ...citations, rationale }, decision.action.id);
      await session.engine.store.killSession(session.record.id, rationale);
      return refuse(`${rationale}; the session is stopped`);
    } finally {
      this.inFlight.delete(id);
    }
  }

  /** Never throws: storeEvidence swallows a store failure (the next write is judged without it). */
  private async afterTool(input: HookInput, failed: boolean): Promise<HookJSONOutput> {
    if (input.hook_event_name !== 'PostToolUse' && input.hook_event_name !== 'PostToolUseFailure')
      return NO_OPINION;
    this.inFlight.delete(input.tool_use_id);
    const read = this.reads.get(input.tool_use_id);
    if (!read) return NO_OPINION;
    this.reads.delete(input.tool_use_id);
    const output = input.hook_event_name === 'PostToolUse' ? input.tool_response : input.error;
    await this.storeEvidence(read, output, failed);
    return NO_OPINION;
  }

  /** Records a finished read; never rejects (a lost record leaves the next write judged without it). */
  private storeEvidence(read: PendingRead, output: unknown, isError: boolean): Promise<void> {
    const write = (async () => {
      const session = this.requireSession();
      await session.engine.store.recordEvidence({
        sessionId: session.record.id,
        toolName: read.toolName,
        input: read.input,
        output,
        isError,
        startedAt: read.startedAt,
        finishedAt: new Date().toISOString(),
      });
    })()
      .catch(() => {})
      .finally(() => this.evidenceWrites.delete(write));
    this.evidenceWrites.add(write);
    return write;
  }
}
