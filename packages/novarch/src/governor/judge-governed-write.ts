import type { ActiveSession } from '../augur/augur-session.js';
import type { Decision } from '../engine/novarch-engine.js';
import type { ActionContext } from '../model/records.js';
import { awaitOperatorDecision } from './await-operator-decision.js';
import {
  describeError,
  failedClosed,
  type GovernedWrite,
  isRecord,
  operatorKillStop,
  type SessionStop,
  type WriteJudgement,
} from './governed-call.js';

/** How a write is judged. */
export interface JudgeWriteOptions {
  /** The call's abort signal: it ends a hold's wait, and an aborted write never runs. */
  signal?: AbortSignal | undefined;
  /**
   * Called as soon as the session is known to stop, before the stop is written to the store, so
   * a caller that latches can refuse its other calls while that write is under way.
   */
  onStop?: (stop: SessionStop) => void;
}

/**
 * Judges a write and follows its verdict: the one place the verdict table lives.
 *
 * | verdict                       | judgement                                               |
 * | ----------------------------- | ------------------------------------------------------- |
 * | judge pass / operator approve | `run`, if the session is still open right before        |
 * | judge kill                    | `stop`, stored as the session's kill                    |
 * | operator deny                 | `deny` with the operator's rationale                    |
 * | hold skipped / timed out      | `stop`, stored as the session's kill                    |
 * | call aborted while held       | `refuse`; the hold is closed, the session goes on       |
 *
 * Everything Novarch cannot do refuses (fail-closed): a context builder that throws (nothing is
 * judged), a store that fails at any step, a hold verdict without a hold record. The store is read
 * again right before `run`: a kill stored while the write was judged or held wins. Never rejects.
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
      reason: `the input of "${write.name}" does not fit its WriteSpec (${describeError(error)})`,
    };
  }
  const reasoning = isRecord(args) && typeof args.reasoning === 'string' ? args.reasoning : undefined;
  try {
    const decision = await session.engine.decide(session.record, {
      actionType: write.actionType,
      toolName: write.toolName,
      input: args,
      context,
      ...(reasoning !== undefined ? { reasoning } : {}),
    });
    return await followVerdict(session, decision, options);
  } catch (error) {
    return { type: 'refuse', reason: failedClosed(error) };
  }
}

async function followVerdict(
  session: ActiveSession,
  decision: Decision,
  options: JudgeWriteOptions,
): Promise<WriteJudgement> {
  const { citations } = decision.verdict;
  const actionId = decision.action.id;
  if (decision.verdict.kind === 'pass')
    return letThrough(session, 'while this write was being judged', options);
  if (decision.verdict.kind === 'kill')
    return stopSession(session, { citations, actionId }, `refused: ${citations.rationale}`, options);
  if (!decision.hold) return { type: 'refuse', reason: 'held without a hold record; refused to be safe' };
  const { hold, aborted } = await awaitOperatorDecision(session, decision.hold, options.signal);
  if (hold.status === 'denied') {
    const rationale = `an operator denied this action: ${hold.rationale ?? 'no rationale given'}`;
    return { type: 'deny', reason: rationale, citations: { ...citations, rationale }, actionId };
  }
  if (hold.status === 'skipped') {
    const rationale = 'an operator skipped the hold';
    return stopSession(
      session,
      { citations: { ...citations, rationale }, actionId },
      stoppedBy(rationale),
      options,
    );
  }
  // An approval (or the deadline) that crossed the abort does not make an aborted write run.
  if (aborted)
    return { type: 'refuse', reason: 'the call was aborted while this write was held; it did not run' };
  if (hold.status === 'approved') return letThrough(session, 'while this write was held', options);
  const rationale = 'no operator decided the hold in time';
  return stopSession(
    session,
    { citations: { ...citations, rationale }, actionId },
    stoppedBy(rationale),
    options,
  );
}

function stoppedBy(rationale: string): string {
  return `${rationale}; the session is stopped`;
}

/** A write passed or approved runs only if the session is still open and the call not aborted. */
async function letThrough(
  session: ActiveSession,
  during: string,
  options: JudgeWriteOptions,
): Promise<WriteJudgement> {
  const killed = await session.engine.isKilled(session.record.id);
  if (killed) {
    const stop = operatorKillStop(killed);
    options.onStop?.(stop);
    return { type: 'stop', reason: `an operator killed this session ${during}`, stop };
  }
  if (options.signal?.aborted)
    return { type: 'refuse', reason: 'the call was aborted before this write could run; it did not run' };
  return { type: 'run' };
}

/** A judge kill, a skip or a timeout stops the session: latched first, then stored. */
async function stopSession(
  session: ActiveSession,
  stop: SessionStop,
  reason: string,
  options: JudgeWriteOptions,
): Promise<WriteJudgement> {
  options.onStop?.(stop);
  try {
    await session.engine.store.killSession(session.record.id, stop.citations.rationale);
  } catch {
    // The write is refused all the same, and a caller that latches refuses what follows. Without
    // a latch (the decorator floor) the next call finds the session open: it is judged afresh.
  }
  return { type: 'stop', reason, stop };
}
