import { refusalOfFailure } from '../engine/decision-error.js';
import { ABORTED_HOLD_RATIONALE, type Decision } from '../engine/novarch-engine.js';
import { latchOfStoredKill, storedKillReason } from '../gate/gate-latch.js';
import { type HoldListener, notifyHold } from '../gate/hold-listener.js';
import { rationaleOf } from '../gate/write-rationale.js';
import type { ActionContext, HoldRecord, KillSource, SessionRecord } from '../model/records.js';
import type { ActiveSession } from '../session/active-session.js';
import { evidenceIncompleteReason, evidenceLostOf } from '../session/session-evidence.js';
import { errorMessage, isRecord } from '../support.js';
import { failedClosed, type GovernedWrite, type SessionStop, type WriteJudgement } from './governed-call.js';

/** How a write is judged. */
export interface JudgeWriteOptions {
  /** The call's abort signal: it ends a hold's wait, and an aborted write never runs. */
  signal?: AbortSignal | undefined;
  /**
   * The last moment (epoch ms) the write may still be let run. The judge gets at most the time up
   * to it, a hold's deadline never passes it, and an approval that comes later does not run it.
   */
  deadline?: number | undefined;
  /**
   * Called as soon as the session is known to stop, before the stop is written to the store, so
   * a caller that latches can refuse its other calls while that write is under way.
   */
  onStop?: (stop: SessionStop) => void;
  /** Told when the write is held and when its hold is decided (see `HoldEvent`). */
  onHold?: HoldListener | undefined;
  /** The tool call's id, reported with hold events when the loop knows it. */
  callId?: string | undefined;
  /** The model's text before the call: the write's rationale when its input has no `reasoning`. */
  modelText?: string | undefined;
}

const ABORTED_BEFORE = 'the call was aborted before this write could run; it did not run';
const ABORTED_WHILE_HELD = 'the call was aborted while this write was held; it did not run';

/**
 * Judges a write and follows its verdict: the one place the verdict table lives.
 *
 * | verdict                       | judgement                                                    |
 * | ----------------------------- | ------------------------------------------------------------ |
 * | judge pass / operator approve | `run`, once released (the release checks the session's kill) |
 * | judge kill                    | `stop`, stored as the session's kill (source `judge`)        |
 * | operator deny                 | `deny` with the operator's rationale                         |
 * | hold skipped / timed out      | `stop`, stored as the session's kill (its source and rules)  |
 * | a kill stored before release  | `stop`; the store records a `gate` verdict: it did not run   |
 * | call aborted while held       | `refuse`; the hold is closed, the session goes on            |
 *
 * A pass is let run by the engine in the same durable transaction that records it and checks the
 * session was not killed (`decide(..., { release: true })`); an approved hold the same way
 * (`engine.release`). A kill stored before that wins, wherever it came from; a kill stored after
 * it is too late for this write, as for any write already running.
 *
 * Everything Novarch cannot do refuses (fail-closed): a context builder that throws (nothing is
 * judged), a store that fails at any step, a hold verdict without a hold record. Never rejects.
 */
export async function judgeGovernedWrite<Args>(
  session: ActiveSession,
  write: GovernedWrite<Args>,
  args: Args,
  options: JudgeWriteOptions = {},
): Promise<WriteJudgement> {
  let context: ActionContext;
  try {
    context = write.contextBuilder(args);
  } catch (error) {
    return {
      type: 'refuse',
      reason: `the input of "${write.name}" does not fit its WriteSpec (${errorMessage(error)})`,
    };
  }
  // Nothing is judged (nor released) for a call that already gave up.
  if (options.signal?.aborted) return { type: 'refuse', reason: ABORTED_BEFORE };
  const lost = evidenceLostOf(session);
  if (lost !== undefined) {
    const reason = evidenceIncompleteReason(lost);
    await recordRefusedWrite(session, write, args, context, reason);
    return { type: 'refuse', reason };
  }
  const reasoning = rationaleOf(args, options.modelText);
  try {
    const decision = await session.engine.decide(
      session.record,
      {
        actionType: write.actionType,
        toolName: write.toolName,
        input: args,
        context,
        ...(reasoning !== undefined ? { reasoning } : {}),
      },
      { release: true, ...(options.deadline === undefined ? {} : { deadline: options.deadline }) },
    );
    return await followVerdict(session, write, decision, options);
  } catch (error) {
    const reason = failedClosed(error);
    // On the recorded action when the decision got that far: it must not be left without a verdict.
    // (Not twice: a server that failed to decide has recorded the refusal already.)
    const failure = refusalOfFailure(error);
    if (failure.kind === 'on-action') await recordNotRun(session, failure.actionId, reason);
    return { type: 'refuse', reason };
  }
}

async function followVerdict<Args>(
  session: ActiveSession,
  write: GovernedWrite<Args>,
  decision: Decision,
  options: JudgeWriteOptions,
): Promise<WriteJudgement> {
  const { citations } = decision.verdict;
  const actionId = decision.action.id;
  // Killed before the write was judged: the store recorded its refusal; nothing was judged.
  if (decision.release?.released === false && decision.verdict.kind !== 'pass')
    return stoppedBeforeRelease(decision.release.session, '', options);
  if (decision.verdict.kind === 'pass') {
    const { release } = decision;
    if (release === undefined)
      return { type: 'refuse', reason: 'passed without a release; refused to be safe' };
    if (!release.released)
      return stoppedBeforeRelease(release.session, 'while this write was being judged', options);
    return afterRelease(session, actionId, options, ABORTED_BEFORE);
  }
  if (decision.verdict.kind === 'kill')
    return stopSession(session, { citations, actionId }, 'judge', `refused: ${citations.rationale}`, options);
  if (!decision.hold) return { type: 'refuse', reason: 'held without a hold record; refused to be safe' };
  // An abort of the signal closes the hold at once (`ABORTED_HOLD_RATIONALE`); a decision that
  // came first stands and is returned.
  const reported = {
    toolName: decision.action.toolName,
    actionType: decision.action.actionType,
    ...(options.callId === undefined ? {} : { callId: options.callId }),
  };
  if (decision.hold.status === 'pending')
    notifyHold(options.onHold, { type: 'hold-pending', hold: decision.hold, ...reported, citations });
  const hold = await session.engine.awaitHold(decision.hold, options.signal);
  notifyHold(options.onHold, { type: 'hold-resolved', hold, ...reported });
  if (hold.status === 'denied') {
    const rationale = `an operator denied this action: ${hold.rationale ?? 'no rationale given'}`;
    return { type: 'deny', reason: rationale, citations: { ...citations, rationale }, actionId };
  }
  if (hold.status === 'skipped') {
    const rationale = 'an operator skipped the hold';
    const stop = { citations: { ...citations, rationale }, actionId };
    return stopSession(session, stop, 'hold_skipped', stoppedBy(rationale), options);
  }
  // An approval (or the deadline) that crossed the abort does not make an aborted write run.
  if (options.signal?.aborted || (hold.status === 'timed_out' && hold.rationale === ABORTED_HOLD_RATIONALE))
    return { type: 'refuse', reason: ABORTED_WHILE_HELD };
  if (hold.status === 'approved') {
    if (options.deadline !== undefined && Date.now() > options.deadline)
      return {
        type: 'refuse',
        reason: 'the approval came too late for the call that waited on it; the write did not run',
      };
    if (hold.edit !== undefined) return judgeGovernedEdit(session, write, decision, hold, options);
    const release = await session.engine.release(decision);
    if (!release.released) return stoppedBeforeRelease(release.session, 'while this write was held', options);
    return afterRelease(session, actionId, options, ABORTED_WHILE_HELD);
  }
  const rationale = 'no operator decided the hold in time';
  const stop = { citations: { ...citations, rationale }, actionId };
  return stopSession(session, stop, 'hold_timed_out', stoppedBy(rationale), options);
}

function stoppedBy(rationale: string): string {
  return `${rationale}; the session is stopped`;
}

/**
 * An operator's edit of a held write (approve with edit): checked against the tool's input schema,
 * its context built, judged again as a new action (`editOf`); it runs with the edited input on a
 * pass or a hold the approval covers, and is refused otherwise (the session goes on: the agent
 * did not ask for it). A caller that cannot run an edited input, or a tool without a schema
 * check, takes no edit.
 */
async function judgeGovernedEdit<Args>(
  session: ActiveSession,
  write: GovernedWrite<Args>,
  held: Decision,
  hold: HoldRecord,
  options: JudgeWriteOptions,
): Promise<WriteJudgement> {
  const by = hold.edit?.by ?? 'an operator';
  const input = hold.edit?.input;
  const refuseHeld = async (reason: string): Promise<WriteJudgement> => {
    await recordNotRun(session, held.action.id, reason);
    return { type: 'refuse', reason };
  };
  if (!isRecord(input))
    return refuseHeld(`the edit of ${by} is not a tool input object; the write did not run`);
  if (write.acceptsEdits !== true)
    return refuseHeld(
      `${by} approved an edited input, but this agent loop cannot run an edited input; the write did not run`,
    );
  if (write.validateInput === undefined)
    return refuseHeld(
      `${by} approved an edited input, but no input schema of "${write.name}" is known to check it against (WriteSpec.validateInput), so the edit did not run`,
    );
  let problem: string | undefined;
  try {
    problem = write.validateInput(input);
  } catch (error) {
    problem = `the schema check failed: ${errorMessage(error)}`;
  }
  if (problem !== undefined)
    return refuseHeld(
      `the edit of ${by} does not fit the input schema of "${write.name}" (${problem}); it did not run`,
    );
  let context: ActionContext;
  try {
    // The edit is the tool's input, of the same shape as the agent's (checked just above).
    context = write.contextBuilder(input as Args);
  } catch (error) {
    return refuseHeld(
      `the edit of ${by} does not fit the WriteSpec of "${write.name}" (${errorMessage(error)}); it did not run`,
    );
  }
  const decision = await session.engine.decide(
    session.record,
    {
      actionType: write.actionType,
      toolName: write.toolName,
      input,
      context,
      reasoning: `${by} edited the input of ${held.action.id} when approving hold ${hold.id}`,
    },
    {
      release: true,
      editOf: hold.id,
      ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    },
  );
  const actionId = decision.action.id;
  if (decision.release?.released === false && decision.verdict.kind !== 'pass')
    return stoppedBeforeRelease(decision.release.session, '', options);
  if (decision.verdict.kind === 'kill')
    return {
      type: 'refuse',
      reason: `the rules refuse the edit of ${by}: ${decision.verdict.citations.rationale}; it did not run`,
    };
  if (decision.editRefusal !== undefined) return { type: 'refuse', reason: decision.editRefusal };
  if (decision.release === undefined)
    return { type: 'refuse', reason: 'the edit was not released; refused to be safe' };
  if (!decision.release.released)
    return stoppedBeforeRelease(decision.release.session, 'while the edited write was judged', options);
  const ran = await afterRelease(session, actionId, options, ABORTED_WHILE_HELD);
  return ran.type === 'run' ? { ...ran, input } : ran;
}

/**
 * A released write runs unless its call was aborted during the release; then the audit says it
 * did not run (a `gate` refusal on the released action).
 */
async function afterRelease(
  session: ActiveSession,
  actionId: string,
  options: JudgeWriteOptions,
  abortedReason: string,
): Promise<WriteJudgement> {
  if (!options.signal?.aborted) return { type: 'run', actionId };
  await recordNotRun(session, actionId, abortedReason);
  return { type: 'refuse', reason: abortedReason };
}

/**
 * Records that a released write did not run after all (its call was aborted, or its caller's
 * session latched meanwhile). A failure to record it is swallowed: the write is refused anyway.
 */
export async function recordNotRun(session: ActiveSession, actionId: string, reason: string): Promise<void> {
  try {
    await session.engine.store.recordRefusal({
      sessionId: session.record.id,
      source: 'gate',
      actionId,
      citations: { ruleIds: [], evidenceIds: [], rationale: reason },
    });
  } catch {
    // The store that failed is why it is not recorded.
  }
}

/** A kill stored before the write could be let run: it wins; the store recorded why it did not run. */
function stoppedBeforeRelease(
  killed: SessionRecord,
  during: string,
  options: JudgeWriteOptions,
): WriteJudgement {
  const stop = latchOfStoredKill(killed);
  options.onStop?.(stop);
  return { type: 'stop', reason: storedKillReason(killed, during), stop };
}

/** A judge kill, a skip or a timeout stops the session: latched first, then stored with its source. */
async function stopSession(
  session: ActiveSession,
  stop: SessionStop,
  source: KillSource,
  reason: string,
  options: JudgeWriteOptions,
): Promise<WriteJudgement> {
  options.onStop?.(stop);
  try {
    await session.engine.store.killSession(session.record.id, stop.citations.rationale, {
      source,
      ...(stop.actionId === undefined ? {} : { actionId: stop.actionId }),
      ruleIds: stop.citations.ruleIds,
      evidenceIds: stop.citations.evidenceIds,
    });
  } catch {
    // The write is refused all the same, and a caller that latches refuses what follows. Without
    // a latch (the decorator floor) the next call finds the session open: it is judged afresh.
  }
  return { type: 'stop', reason, stop };
}

/** A write refused before it was judged, recorded as a `gate` refusal so the audit shows it. */
async function recordRefusedWrite<Args>(
  session: ActiveSession,
  write: GovernedWrite<Args>,
  args: Args,
  context: ActionContext,
  reason: string,
): Promise<void> {
  try {
    await session.engine.store.recordRefusal({
      sessionId: session.record.id,
      source: 'gate',
      citations: { ruleIds: [], evidenceIds: [], rationale: reason },
      call: { actionType: write.actionType, toolName: write.toolName, input: args, context },
    });
  } catch {
    // The store that failed is why it is not recorded; the write is refused all the same.
  }
}
