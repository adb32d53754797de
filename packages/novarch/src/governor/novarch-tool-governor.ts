import { NovarchError, NovarchKillError } from '../errors.js';
import type { HoldListener } from '../gate/hold-listener.js';
import { checkToolKinds, type ToolKind, type WriteSpec } from '../gate/write-spec.js';
import type { Citations } from '../model/records.js';
import { type ActiveSession, currentSession } from '../session/active-session.js';
import { isRecord } from '../support.js';
import { checkSession } from './check-session.js';
import {
  failedClosed,
  hasErrorFlag,
  refusalText,
  type SessionStop,
  type WriteJudgement,
} from './governed-call.js';
import { recordNotRun } from './governed-write-outcomes.js';
import { judgeGovernedWrite } from './judge-governed-write.js';
import { reportsError, runGovernedRead } from './run-governed-read.js';

/** How a `NovarchToolGovernor` governs the tools of one session. */
export interface NovarchToolGovernorOptions {
  /** The governed session (`{ engine, record: await engine.openSession(scope, maxHoldS) }`); default the current `augur.session`. */
  session?: ActiveSession;
  /** Tool name → read (runs, becomes evidence) or write (judged before it runs). */
  toolKinds: Readonly<Record<string, ToolKind>>;
  /** How each write tool becomes an action; one for every tool `toolKinds` maps as a write. */
  writeSpecs?: Readonly<Record<string, WriteSpec>>;
  /**
   * Tools allowed without a kind, run and recorded as reads. Default none: unlike the hook gate
   * (which lets the Claude runtime's `ToolSearch` through), an agent loop of your own has no
   * tool it needs behind your back.
   */
  allowUnmapped?: Iterable<string>;
  /**
   * Whether a read's output reports an error (recorded `isError`; a rule sees it as `e.is_error`).
   * Default: the MCP convention, an object with `isError: true`. A read that throws or is aborted
   * always counts as failed.
   */
  isErrorOutput?: (output: unknown) => boolean;
  /**
   * Told when a write is held for an operator (hold id, deadline, the rules that held it) and
   * when the hold is decided, e.g. to show the wait in a chat. It reports; it never decides.
   */
  onHold?: HoldListener;
  /**
   * Where the governor warns about lost evidence (a read whose evidence could not be stored: the
   * session's later writes are then refused as "evidence incomplete"); default `process.stderr`.
   */
  warn?: (message: string) => void;
}

/** One tool call, as the agent loop hands it over. */
export interface GovernedToolCall {
  /** The tool's name, as `toolKinds` and the team rules know it. */
  toolName: string;
  /** The tool's input (already validated against its schema by the loop). */
  input: unknown;
  /** The loop's abort signal (the AI SDK's `abortSignal`): it ends a hold's wait and stops an unrun write. */
  signal?: AbortSignal;
  /**
   * For a write: the last moment (epoch ms) it may still run, e.g. when the loop gives up on the
   * tool. The judge gets at most the time up to it, a hold ends before it, and an approval that
   * comes later does not run the write. Default: no limit but the session's hold wait.
   */
  deadline?: number;
  /** The loop's id of this call, reported with hold events (`onHold`). */
  callId?: string;
  /**
   * The text the model wrote before this call (in the step that made it). A write whose input has
   * no `reasoning` field carries it as its rationale: operators read it on the hold.
   */
  modelText?: string;
}

/**
 * How a governed call ended. `refused` and `killed` carry a model-readable `reason` starting with
 * `Novarch: `, to hand back as the tool's error result; on `killed` the session is stopped and
 * every later call is refused (`raiseIfKilled()` throws `NovarchKillError`).
 */
export type GovernedToolOutcome<Output> =
  | { kind: 'ran'; output: Output; isError: boolean }
  | { kind: 'refused'; reason: string }
  | { kind: 'killed'; reason: string; citations: Citations };

const ALONGSIDE = 'a write may not run alongside other tool calls of the same turn; call it on its own';

/**
 * Governs the tool calls of one session for any agent loop: wrap each tool's `execute` in
 * `governor.run(call, execute)`. It does not depend on an agent framework (nor load the Claude
 * Agent SDK), and decides exactly as the hook gate does, on the same store, rules and audit:
 * - a read runs and is recorded as evidence (input, output, timing, whether it failed);
 * - a write is judged first: pass or operator approval → it runs; judge kill, skipped or
 *   timed-out hold → refused and the session latches; operator deny → refused, the session goes
 *   on; a write started while other calls of the session are in flight is refused;
 * - a session an operator killed latches at its next call; after a latch every call is refused;
 * - anything Novarch cannot do (a context builder that throws, a failing store, an unmapped
 *   tool) refuses the call, never runs it.
 * `run` never rejects for Novarch's sake; an error thrown by `execute` itself is rethrown.
 */
export class NovarchToolGovernor {
  /** The governed session. */
  readonly session: ActiveSession;
  readonly #kinds: ReadonlyMap<string, ToolKind>;
  readonly #specs: ReadonlyMap<string, WriteSpec>;
  readonly #allowUnmapped: ReadonlySet<string>;
  readonly #isErrorOutput: (output: unknown) => boolean;
  readonly #onHold: HoldListener | undefined;
  readonly #warn: ((message: string) => void) | undefined;
  /** Calls started and not finished: one token per call. */
  readonly #inFlight = new Set<object>();
  #stop: SessionStop | undefined;

  constructor(options: NovarchToolGovernorOptions) {
    const session = options.session ?? currentSession();
    if (!session)
      throw new NovarchError(
        'NovarchToolGovernor needs a session: pass { session: { engine, record: await engine.openSession(scope) } }, or create it inside augur.session(...)',
      );
    this.session = session;
    // Maps of own entries: a tool named "constructor" or "toString" is not mapped by accident.
    this.#kinds = checkToolKinds(options.toolKinds);
    this.#specs = checkWriteSpecs(this.#kinds, options.writeSpecs ?? {});
    this.#allowUnmapped = new Set(options.allowUnmapped ?? []);
    this.#isErrorOutput = options.isErrorOutput ?? hasErrorFlag;
    this.#onHold = options.onHold;
    this.#warn = options.warn;
  }

  /** True once the session latched (judge kill, skipped or timed-out hold, operator kill). */
  get killed(): boolean {
    return this.#stop !== undefined;
  }

  /** Why the session latched, once it did. */
  killReason(): string | undefined {
    return this.#stop?.citations.rationale;
  }

  /** After the agent loop: throws `NovarchKillError` when the session latched. */
  raiseIfKilled(): void {
    if (!this.#stop) return;
    throw new NovarchKillError({
      sessionId: this.session.record.id,
      ...(this.#stop.actionId !== undefined ? { actionId: this.#stop.actionId } : {}),
      citations: this.#stop.citations,
    });
  }

  /**
   * Runs one tool call governed: `execute` runs only when Novarch lets the call through (see the
   * class). Resolves with how the call ended; rejects only with an error `execute` threw.
   */
  async run<Output>(
    call: GovernedToolCall,
    execute: () => Output | PromiseLike<Output>,
    /**
     * Runs the tool with an operator's edited input (approve with edit). Without it, a write an
     * operator approved with an edit is refused: the caller could only run the agent's input.
     */
    executeEdited?: (input: Record<string, unknown>) => Output | PromiseLike<Output>,
  ): Promise<GovernedToolOutcome<Output>> {
    if (this.#stop) return refuseStopped(this.#stop);
    const kind =
      this.#kinds.get(call.toolName) ?? (this.#allowUnmapped.has(call.toolName) ? 'read' : undefined);
    // Taken when the call starts, before any wait: a write must not be judged on evidence still
    // being collected, nor beside another write.
    const alongside = kind === 'write' && this.#inFlight.size > 0;
    const token = {};
    if (kind) this.#inFlight.add(token);
    try {
      // A write's kill check is the engine's: its decision reads the kill in the transaction that
      // records the action (and again in the one that releases it), so a read here would be a
      // second round trip to the store (or the server) on every write.
      if (kind !== 'write') {
        const check = await checkSession(this.session);
        if (check.type === 'refuse') return refused(check.reason);
        if (check.type === 'stop') return killedOutcome(check.reason, this.#latch(check.stop));
        // Another call may have latched the session while this one awaited the store.
        if (this.#stop) return refuseStopped(this.#stop);
      }
      if (!kind) return refused(`tool "${call.toolName}" is not mapped to read or write, so it may not run`);
      if (kind === 'read') {
        const { output, isError } = await runGovernedRead(this.session, call.toolName, call.input, execute, {
          signal: call.signal,
          isErrorOutput: this.#isErrorOutput,
          warn: this.#warn,
        });
        return { kind: 'ran', output, isError };
      }
      if (alongside) return refused(ALONGSIDE);
      return await this.#runWrite(call, execute, executeEdited);
    } finally {
      this.#inFlight.delete(token);
    }
  }

  async #runWrite<Output>(
    call: GovernedToolCall,
    execute: () => Output | PromiseLike<Output>,
    executeEdited: ((input: Record<string, unknown>) => Output | PromiseLike<Output>) | undefined,
  ): Promise<GovernedToolOutcome<Output>> {
    const spec = this.#specs.get(call.toolName);
    const { input } = call;
    if (!spec || !isRecord(input))
      return refused(`write "${call.toolName}" has no usable input or WriteSpec`);
    let judgement: WriteJudgement;
    try {
      const write = {
        name: call.toolName,
        toolName: call.toolName,
        actionType: spec.actionType,
        contextBuilder: spec.contextBuilder,
        validateInput: spec.validateInput,
        acceptsEdits: executeEdited !== undefined,
      };
      judgement = await judgeGovernedWrite(this.session, write, input, {
        signal: call.signal,
        deadline: call.deadline,
        onStop: (stop) => this.#latch(stop),
        onHold: this.#onHold,
        callId: call.callId,
        modelText: call.modelText,
      });
    } catch (error) {
      return refused(failedClosed(error));
    }
    if (judgement.type === 'refuse' || judgement.type === 'deny') return refused(judgement.reason);
    if (judgement.type === 'stop') return killedOutcome(judgement.reason, this.#latch(judgement.stop));
    // Released; but a call started meanwhile may have latched the session. No await between this
    // check and `execute`: nothing can latch the session in between.
    if (this.#stop) {
      await recordNotRun(this.session, judgement.actionId, stoppedReason(this.#stop));
      return refuseStopped(this.#stop);
    }
    const edited = judgement.input;
    const output =
      edited !== undefined && executeEdited !== undefined ? await executeEdited(edited) : await execute();
    return { kind: 'ran', output, isError: reportsError(this.#isErrorOutput, output) };
  }

  /** Latches the session; the first stop is kept, and returned. */
  #latch(stop: SessionStop): SessionStop {
    this.#stop ??= stop;
    return this.#stop;
  }
}

/** A call after the latch. */
function refuseStopped(stop: SessionStop): GovernedToolOutcome<never> {
  return killedOutcome(stoppedReason(stop), stop);
}

function stoppedReason(stop: SessionStop): string {
  return `this session was stopped (${stop.citations.rationale}); no further tool calls run`;
}

function refused(reason: string): GovernedToolOutcome<never> {
  return { kind: 'refused', reason: refusalText(reason) };
}

function killedOutcome(reason: string, stop: SessionStop): GovernedToolOutcome<never> {
  return { kind: 'killed', reason: refusalText(reason), citations: stop.citations };
}

function checkWriteSpecs(
  kinds: ReadonlyMap<string, ToolKind>,
  writeSpecs: Readonly<Record<string, WriteSpec>>,
): Map<string, WriteSpec> {
  const specs = new Map(Object.entries(writeSpecs));
  for (const [tool, kind] of kinds) {
    if (kind === 'write' && !specs.has(tool))
      throw new NovarchError(
        `write tool "${tool}" has no WriteSpec: add writeSpecs["${tool}"] with actionType and contextBuilder`,
      );
  }
  for (const [tool, spec] of specs) {
    if (kinds.get(tool) !== 'write')
      throw new NovarchError(
        `writeSpecs["${tool}"] is for a tool toolKinds does not map as "write", so it would never be judged; map it with toolKinds["${tool}"] = "write"`,
      );
    if (
      typeof spec.actionType !== 'string' ||
      spec.actionType === '' ||
      typeof spec.contextBuilder !== 'function'
    )
      throw new NovarchError(
        `writeSpecs["${tool}"] needs an actionType (a non-empty string) and a contextBuilder (a function), so the judge knows what the write does`,
      );
  }
  return specs;
}
