import { latchOfStoredKill, storedKillReason } from '../gate/gate-latch.js';
import type { ActionContext, KillSource, SessionRecord } from '../model/records.js';
import type { ActiveSession } from '../session/active-session.js';
import type { GovernedWrite, SessionStop, WriteJudgement } from './governed-call.js';
import type { JudgeWriteOptions } from './judge-write-options.js';

/**
 * A released write runs unless its call was aborted during the release; then the audit says it
 * did not run (a `gate` refusal on the released action).
 */
export async function afterRelease(
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
export function stoppedBeforeRelease(
  killed: SessionRecord,
  during: string,
  options: JudgeWriteOptions,
): WriteJudgement {
  const stop = latchOfStoredKill(killed);
  options.onStop?.(stop);
  return { type: 'stop', reason: storedKillReason(killed, during), stop };
}

/** A judge kill, a skip or a timeout stops the session: latched first, then stored with its source. */
export async function stopSession(
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
export async function recordRefusedWrite<Args>(
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
