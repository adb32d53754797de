import { refusalOfFailure } from '../engine/decision-error.js';
import { ABORTED_HOLD_RATIONALE, type Decision } from '../engine/novarch-engine.js';
import { notifyHold } from '../gate/hold-listener.js';
import { rationaleOf } from '../gate/write-rationale.js';
import type { ActionContext, HoldRecord } from '../model/records.js';
import type { ActiveSession } from '../session/active-session.js';
import { evidenceIncompleteReason, evidenceLostOf } from '../session/session-evidence.js';
import { errorMessage, isRecord } from '../support.js';
import { failedClosed, type GovernedWrite, type WriteJudgement } from './governed-call.js';
import {
  afterRelease,
  recordNotRun,
  recordRefusedWrite,
  stoppedBeforeRelease,
  stopSession,
} from './governed-write-outcomes.js';
import type { JudgeWriteOptions } from './judge-write-options.js';

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
