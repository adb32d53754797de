import type { HookJSONOutput } from '@anthropic-ai/claude-agent-sdk';
import { refusalOfFailure } from '../engine/decision-error.js';
import { ABORTED_HOLD_RATIONALE, type Decision } from '../engine/novarch-engine.js';
import type { ActionContext, KillSource, SessionRecord } from '../model/records.js';
import type { ActiveSession } from '../session/active-session.js';
import { errorMessage, isRecord } from '../support.js';
import { NO_OPINION, refuse } from './gate-decisions.js';
import type { GateLatch } from './gate-latch.js';
import type { GateCall, GateRecorder } from './gate-recorder.js';
import { type HoldListener, notifyHold } from './hold-listener.js';
import { runEditedWrite } from './judge-hook-edit.js';
import type { TurnTracker } from './turn-tracker.js';
import { rationaleOf } from './write-rationale.js';
import type { WriteSpec } from './write-spec.js';

/** A write call as its PreToolUse hook gave it. */
export type WriteCall = GateCall;

/** What the gate lends the judgement of one write. */
export interface WriteContext {
  session: ActiveSession;
  recorder: GateRecorder;
  turns: TurnTracker;
  inFlight: Map<string, string>;
  spec: WriteSpec | undefined;
  latched(): GateLatch | undefined;
  latch(latch: GateLatch): void;
  /** Told when a write is held and when its hold is decided. */
  onHold?: HoldListener | undefined;
  /** The model's text before the call (the message stream's), the rationale of a write without `reasoning`. */
  modelTextBefore?: ((callId: string) => string | undefined) | undefined;
}

/** When the write's hook started, when the CLI stops waiting for it, and its abort signal. */
export interface WriteTiming {
  startedAt: number;
  hookDeadline: number;
  signal: AbortSignal | undefined;
}

/**
 * How long before the hook times out a write is last let run: the release (one durable commit,
 * which may wait for another process's write lock) and the answer to the CLI must fit in it.
 */
const LET_THROUGH_MARGIN_MS = 5_000;
/** How long a write waits for the reads other agents have in flight to report. */
const PENDING_READ_WAIT_MS = 10_000;
/** How long a write waits for the message stream to show its own tool_use (see TurnTracker). */
const TURN_WAIT_MS = 2_000;

const ALONGSIDE = 'a write may not run alongside other tool calls of the same turn; call it on its own';
const ABORTED_BEFORE_JUDGED = 'the call was aborted before this write was judged; it did not run';

/**
 * Judges one write at its PreToolUse hook and follows the verdict. Every way it can end:
 *
 * | what happened                                     | the agent sees              | session   |
 * | ------------------------------------------------- | --------------------------- | --------- |
 * | judge pass, released (the session still open)     | the tool runs               | goes on   |
 * | operator approve, released before the hook's end  | the tool runs               | goes on   |
 * | judge kill                                        | refused                     | latched   |
 * | operator deny                                     | refused with the rationale  | goes on   |
 * | hold skipped or timed out                         | refused                     | latched   |
 * | a kill stored before the release                  | refused                     | latched   |
 * | aborted, alongside other calls, evidence lost,    | refused (recorded `gate`)   | goes on   |
 * | a context builder that throws, a store failure    |                             |           |
 */
export async function judgeHookWrite(
  context: WriteContext,
  call: WriteCall,
  timing: WriteTiming,
): Promise<HookJSONOutput> {
  const { recorder } = context;
  const latest = timing.hookDeadline - LET_THROUGH_MARGIN_MS;
  const alone = await isAlone(context, call, { ...timing, latest });
  if (alone !== true) return recorder.refuse(call, alone, actionTypeOf(context));
  // Checked and claimed in one tick (no await between): of two writes whose hooks run at once,
  // the second sees the first here.
  if (besideInFlight(context, call)) return recorder.refuse(call, ALONGSIDE, actionTypeOf(context));
  context.inFlight.set(call.id, call.agent);
  try {
    // A read another agent (a subagent, a background task) started is evidence once it reports:
    // wait for it a little, and refuse rather than judge without it.
    const pending = await recorder.waitForReadsBeside(
      call.agent,
      Math.min(latest, Date.now() + PENDING_READ_WAIT_MS),
      timing.signal,
    );
    if (pending.length > 0)
      return await recorder.refuse(
        call,
        `evidence incomplete: ${pending.map((read) => `${read.toolName} (call ${read.id})`).join(', ')} of another agent had not finished, so this write cannot be judged on its result; try again once it has`,
        actionTypeOf(context),
      );
    // Evidence observed from the hooks may still be on its way to the store.
    await recorder.settle();
    if (recorder.evidenceLost !== undefined)
      return await recorder.refuse(
        call,
        `evidence incomplete: ${recorder.evidenceLost}; no write of this session is judged on partial evidence`,
        actionTypeOf(context),
      );
    const { spec } = context;
    if (!spec || !isRecord(call.input))
      return await recorder.refuse(call, `write "${call.toolName}" has no usable input or WriteSpec`);
    let actionContext: ActionContext;
    try {
      actionContext = spec.contextBuilder(call.input);
    } catch (error) {
      return await recorder.refuse(
        call,
        `the input of "${call.toolName}" does not fit its WriteSpec (${errorMessage(error)})`,
        { actionType: spec.actionType },
      );
    }
    // Read after the wait for the call's message (isAlone): the text before it has streamed by then.
    const reasoning = rationaleOf(call.input, context.modelTextBefore?.(call.id));
    let decision: Decision;
    try {
      decision = await context.session.engine.decide(
        context.session.record,
        {
          actionType: spec.actionType,
          toolName: call.toolName,
          input: call.input,
          context: actionContext,
          ...(reasoning !== undefined ? { reasoning } : {}),
        },
        { deadline: latest, release: true },
      );
    } catch (error) {
      // On the recorded action when the decision got that far: it must not be left without a verdict
      // (and not twice: a server that failed to decide has recorded the refusal already).
      const reason = `the gate failed (${errorMessage(error)}); refused to be safe`;
      const failure = refusalOfFailure(error);
      if (failure.kind === 'recorded') return refuse(reason);
      return await recorder.refuse(
        call,
        reason,
        failure.kind === 'on-action' ? { actionId: failure.actionId } : { actionType: spec.actionType },
      );
    }
    return await followVerdict(context, call, decision, { ...timing, latest });
  } finally {
    context.inFlight.delete(call.id);
  }
}

function actionTypeOf(context: WriteContext): { actionType?: string } {
  return context.spec === undefined ? {} : { actionType: context.spec.actionType };
}

/**
 * True when the write is the only call of its turn; otherwise why not. With the message stream
 * observed, the turn is the write's assistant message: with partial messages the write waits for
 * that message's end (at most until `latest`), so a call streamed after it is seen too; without
 * them, the calls streamed before its hook. The calls in flight in the same agent are checked by
 * the caller, when it claims its place (a subagent's write is not refused because its parent's
 * `Agent` call runs).
 */
async function isAlone(
  context: WriteContext,
  call: WriteCall,
  timing: WriteTiming & { latest: number },
): Promise<true | string> {
  const { signal } = timing;
  if (context.turns.observing) {
    const seen = await context.turns.waitFor(call.id, TURN_WAIT_MS, signal);
    if (!seen)
      return signal?.aborted
        ? ABORTED_BEFORE_JUDGED
        : `the gate did not see tool call ${call.id} in the message stream, so it cannot tell what runs beside it; refused to be safe`;
    // A sibling already streamed refuses at once; otherwise the rest of the message may bring one.
    if (context.turns.siblingsOf(call.id).length > 0) return ALONGSIDE;
    const end = await context.turns.waitForMessageEnd(call.id, timing.latest, signal);
    if (end === 'aborted') return ABORTED_BEFORE_JUDGED;
    if (end === 'unknown')
      context.recorder.warnOnce(
        'no message ends',
        'novarch: the gate is fed the message stream without partial messages, so it cannot see where an assistant message ends: a write placed before other calls of its message may run. Run the query with includePartialMessages: true for the full guarantee.',
      );
    if (end === 'timed-out')
      return "the assistant message of this write did not end within the hook's time, so the gate cannot tell what runs beside it; refused to be safe";
    if (context.turns.siblingsOf(call.id).length > 0) return ALONGSIDE;
  }
  return true;
}

/** Whether another call of the write's agent is in flight (without the stream: the turn's calls). */
function besideInFlight(context: WriteContext, call: WriteCall): boolean {
  for (const [id, agent] of context.inFlight) if (id !== call.id && agent === call.agent) return true;
  return false;
}

async function followVerdict(
  context: WriteContext,
  call: WriteCall,
  decision: Decision,
  timing: WriteTiming & { latest: number },
): Promise<HookJSONOutput> {
  const { recorder } = context;
  const actionId = decision.action.id;
  const { citations } = decision.verdict;
  const refuseAction = (reason: string) => recorder.refuse(call, reason, { actionId });
  // A session killed before the judgement (nothing judged) or during it (the pass not let run).
  if (decision.release?.released === false)
    return stoppedBeforeRelease(context, decision.release.session, killedWhen(decision));
  if (decision.verdict.kind === 'pass') {
    if (context.latched()) return refuseAction(latchedReason(context));
    if (timing.signal?.aborted)
      return refuseAction('the call was aborted before this write could run; it did not run');
    return NO_OPINION;
  }
  if (decision.verdict.kind === 'kill') {
    return stop(context, { citations, actionId }, 'judge', `refused: ${citations.rationale}`);
  }
  if (!decision.hold) return refuseAction('held without a hold record; refused to be safe');
  const reported = { toolName: call.toolName, actionType: decision.action.actionType, callId: call.id };
  if (decision.hold.status === 'pending')
    notifyHold(context.onHold, { type: 'hold-pending', hold: decision.hold, ...reported, citations });
  const hold = await context.session.engine.awaitHold(decision.hold, timing.signal);
  notifyHold(context.onHold, { type: 'hold-resolved', hold, ...reported });
  // The hold keeps the operator's decision: the audit shows it, no gate verdict is added.
  if (hold.status === 'denied')
    return refuse(`an operator denied this action: ${hold.rationale ?? 'no rationale given'}`);
  if (hold.status === 'approved') {
    if (timing.signal?.aborted)
      return refuseAction('the call was aborted while this write was held; it did not run');
    if (context.latched()) return refuseAction(latchedReason(context));
    if (Date.now() > timing.latest)
      return refuseAction('the approval came too late for the hook that waited on it; the write did not run');
    // Approve with edit: the held write never runs; its edit is judged and, if allowed, runs instead.
    if (hold.edit !== undefined)
      return runEditedWrite(context, call, decision, hold, timing, (killed, during) =>
        stoppedBeforeRelease(context, killed, during),
      );
    const release = await context.session.engine.release(decision);
    if (!release.released) return stoppedBeforeRelease(context, release.session, 'while this write was held');
    return NO_OPINION;
  }
  if (hold.status === 'timed_out' && (timing.signal?.aborted || hold.rationale === ABORTED_HOLD_RATIONALE))
    return refuseAction('the call was aborted while this write was held; it did not run');
  const skipped = hold.status === 'skipped';
  const rationale = skipped ? 'an operator skipped the hold' : 'no operator decided the hold in time';
  return stop(
    context,
    { citations: { ...citations, rationale }, actionId },
    skipped ? 'hold_skipped' : 'hold_timed_out',
    `${rationale}; the session is stopped`,
  );
}

/** When the kill that stopped an unreleased decision came: before it was judged, or during. */
export function killedWhen(decision: Decision): string {
  return decision.verdict.kind === 'pass' ? 'while this write was being judged' : '';
}

function latchedReason(context: WriteContext): string {
  return `this session was stopped (${context.latched()?.citations.rationale}); no further tool calls run`;
}

/** A kill stored before the write could be let run: it wins; the write does not run. */
function stoppedBeforeRelease(
  context: WriteContext,
  killed: SessionRecord,
  during: string,
): Promise<HookJSONOutput> {
  const stop = context.recorder.latchOfKill(killed, during);
  context.latch(stop.latch);
  // The release already recorded a `gate` verdict saying the write did not run.
  return Promise.resolve(refuse(stop.reason));
}

/** A judge kill, a skip or a timeout stops the session: latched first, then stored with its source. */
async function stop(
  context: WriteContext,
  latch: GateLatch,
  source: KillSource,
  reason: string,
): Promise<HookJSONOutput> {
  context.latch(latch);
  try {
    await context.session.engine.store.killSession(context.session.record.id, latch.citations.rationale, {
      source,
      ...(latch.actionId === undefined ? {} : { actionId: latch.actionId }),
      ruleIds: latch.citations.ruleIds,
      evidenceIds: latch.citations.evidenceIds,
    });
  } catch {
    // Refused and latched all the same: this gate refuses everything that follows.
  }
  return refuse(reason);
}
