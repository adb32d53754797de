import type { HookJSONOutput } from '@anthropic-ai/claude-agent-sdk';
import type { Citations, SessionRecord, VerdictSource } from '../model/records.js';
import type { ActiveSession } from '../session/active-session.js';
import { markEvidenceLost } from '../session/session-evidence.js';
import { errorMessage } from '../support.js';
import { refuse } from './gate-decisions.js';
import { type GateLatch, latchOfStoredKill, storedKillReason } from './gate-latch.js';

/** A call as the gate records it: its hook's tool_use id, tool, input and agent ('' = main). */
export interface GateCall {
  id: string;
  toolName: string;
  input: unknown;
  agent: string;
}

interface PendingRead {
  call: GateCall;
  startedAt: string;
}

/** The tools that run a subagent: their calls contain the subagent's, which are tracked themselves. */
const SUBAGENT_TOOLS: ReadonlySet<string> = new Set(['Agent', 'Task']);

/** The action type of a refused call that is not a write (a read, an unmapped tool). */
export const REFUSED_CALL_ACTION_TYPE = 'tool_call';

/**
 * What the gate writes to the store besides the engine's decisions: evidence of the reads that
 * ran, calls refused before they ran (by the gate: source `gate`; by the agent's permission
 * rules: `permissions`), and whether evidence was lost. Evidence is what executed: a read is
 * evidence only once its PostToolUse (or PostToolUseFailure) reported it.
 */
export class GateRecorder {
  readonly #reads = new Map<string, PendingRead>();
  readonly #writes = new Set<Promise<void>>();
  readonly #readWaiters = new Set<() => void>();
  readonly #warned = new Set<string>();
  #evidenceLost: string | undefined;

  constructor(
    private readonly session: ActiveSession,
    private readonly warn: (message: string) => void,
  ) {}

  /** Warns once per gate about `topic` (a limit of how the gate is fed, say). */
  warnOnce(topic: string, message: string): void {
    if (this.#warned.has(topic)) return;
    this.#warned.add(topic);
    this.warn(message);
  }

  /** Why the session's evidence is incomplete (a read's evidence could not be stored), if it is. */
  get evidenceLost(): string | undefined {
    return this.#evidenceLost;
  }

  startRead(call: GateCall): void {
    this.#reads.set(call.id, { call, startedAt: new Date().toISOString() });
  }

  /** A read's PostToolUse (or PostToolUseFailure): it ran; its output is evidence. */
  readRan(id: string, output: unknown, isError: boolean): Promise<void> {
    const read = this.#reads.get(id);
    if (!read) return Promise.resolve();
    this.#reads.delete(id);
    const stored = this.#track(this.#storeEvidence(read, output, isError));
    this.#wakeReadWaiters();
    return stored;
  }

  /**
   * A tool result for a read whose PostToolUse never came: it did not run (the user's permission
   * rules or another hook refused it). Recorded as a refused call, never as evidence.
   */
  readRefused(id: string, content: unknown): void {
    const read = this.#reads.get(id);
    if (!read) return;
    this.#reads.delete(id);
    this.#wakeReadWaiters();
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    const rationale = `the call did not run: the agent's permission rules (or another hook) refused it (${text ?? 'no result'})`;
    void this.#track(this.#recordRefusal(read.call, rationale, 'permissions'));
  }

  /**
   * The main thread's turn ended (its `result`): its reads still pending produced nothing. A
   * subagent's reads are kept: the CLI runs `Agent` calls as background tasks that go on after the
   * main turn's result, and their reads report (and become evidence) later.
   */
  forgetMainThreadReads(): void {
    for (const [id, read] of this.#reads) if (read.call.agent === '') this.#reads.delete(id);
    this.#wakeReadWaiters();
  }

  /**
   * Reads of other agents than `agent` that started and have not reported yet (a subagent's
   * container call, `Agent`, is not one: its subagent's own reads are).
   */
  pendingReadsBeside(agent: string): GateCall[] {
    return [...this.#reads.values()]
      .map((read) => read.call)
      .filter((call) => call.agent !== agent && !SUBAGENT_TOOLS.has(call.toolName));
  }

  /**
   * Waits until no read of another agent than `agent` is pending, at most until `deadline` (epoch
   * ms) or the signal; resolves with the reads still pending then.
   */
  async waitForReadsBeside(agent: string, deadline: number, signal?: AbortSignal): Promise<GateCall[]> {
    while (this.pendingReadsBeside(agent).length > 0 && Date.now() < deadline && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.#readWaiters.add(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
    return this.pendingReadsBeside(agent);
  }

  #wakeReadWaiters(): void {
    const waiters = [...this.#readWaiters];
    this.#readWaiters.clear();
    for (const wake of waiters) wake();
  }

  /** Every store write the recorder started has settled. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.#writes]);
  }

  /** Refuses a call, recorded as a gate refusal with `reason` (a failure to record it is swallowed). */
  async refuse(
    call: GateCall,
    reason: string,
    extra: { actionId?: string; actionType?: string; citations?: Partial<Citations> } = {},
  ): Promise<HookJSONOutput> {
    await this.#recordRefusal(call, reason, 'gate', extra);
    return refuse(reason);
  }

  /** The latch and the agent-facing reason of a session found killed in the store. */
  latchOfKill(killed: SessionRecord, during: string): { latch: GateLatch; reason: string } {
    return { latch: latchOfStoredKill(killed), reason: storedKillReason(killed, during) };
  }

  #track(write: Promise<void>): Promise<void> {
    const tracked = write.finally(() => this.#writes.delete(tracked));
    this.#writes.add(tracked);
    return tracked;
  }

  async #storeEvidence(read: PendingRead, output: unknown, isError: boolean): Promise<void> {
    try {
      await this.session.engine.store.recordEvidence({
        sessionId: this.session.record.id,
        toolName: read.call.toolName,
        input: read.call.input,
        output,
        isError,
        startedAt: read.startedAt,
        finishedAt: new Date().toISOString(),
      });
    } catch (error) {
      // The read ran and the model saw it, but no rule can: later writes would be judged as if
      // it had not happened (a false "no prior lookup" kill). Refuse them instead, and say so.
      const reason = `the evidence of ${read.call.toolName} (call ${read.call.id}) could not be stored: ${errorMessage(error)}`;
      this.#evidenceLost ??= reason;
      markEvidenceLost(this.session, reason);
      this.warn(
        `novarch: session ${this.session.record.id}: ${reason}. Its evidence is incomplete: later writes of the session are refused.`,
      );
    }
  }

  async #recordRefusal(
    call: GateCall,
    rationale: string,
    source: Exclude<VerdictSource, 'judge'>,
    extra: { actionId?: string; actionType?: string; citations?: Partial<Citations> } = {},
  ): Promise<void> {
    const citations: Citations = {
      ruleIds: extra.citations?.ruleIds ?? [],
      evidenceIds: extra.citations?.evidenceIds ?? [],
      rationale,
    };
    try {
      await this.session.engine.store.recordRefusal({
        sessionId: this.session.record.id,
        source,
        citations,
        ...(extra.actionId === undefined
          ? {
              call: {
                actionType: extra.actionType ?? REFUSED_CALL_ACTION_TYPE,
                toolName: call.toolName,
                input: call.input,
                context: { recordId: call.id, summary: `${call.toolName} refused` },
              },
            }
          : { actionId: extra.actionId }),
      });
    } catch {
      // The call is refused all the same; the store that failed is the reason it is not recorded.
    }
  }
}
