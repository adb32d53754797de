import type { ActiveSession } from '../augur/augur-session.js';
import type { HoldRecord } from '../model/records.js';

/** How a hold closed when the call that waited on it was aborted (stored as its rationale). */
export const ABORTED_HOLD_RATIONALE =
  'the agent loop aborted the tool call while it was held; it did not run';

/** The hold as decided, and whether the caller gave up waiting first. */
export interface OperatorDecision {
  hold: HoldRecord;
  /** The call's signal fired: whatever the hold says, the write must not run. */
  aborted: boolean;
}

/**
 * Waits for an operator to decide a hold, within the session's hold window (`awaitHold`).
 *
 * An abort of `signal` ends the wait at once (the engine alone would notice it at its next poll):
 * the hold is closed as `timed_out` with `ABORTED_HOLD_RATIONALE` (the store has no "abandoned"
 * decision: abandoned is how a pending hold nobody waits on looks), so a later approval changes
 * nothing, and the engine's wait is stopped. A decision that came first stands and is returned,
 * marked `aborted`. Rejects when the store fails.
 */
export async function awaitOperatorDecision(
  session: ActiveSession,
  hold: HoldRecord,
  signal: AbortSignal | undefined,
): Promise<OperatorDecision> {
  if (!signal) return { hold: await session.engine.awaitHold(hold), aborted: false };
  const stopWaiting = new AbortController();
  let onAbort = () => {};
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
  });
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const waiting = session.engine.awaitHold(hold, stopWaiting.signal);
  try {
    const decided = await Promise.race([waiting, aborted]);
    if (decided) return { hold: decided, aborted: signal.aborted };
    const closed = await session.engine.store.decideHold(
      hold.id,
      'timed_out',
      'novarch',
      ABORTED_HOLD_RATIONALE,
    );
    return { hold: closed, aborted: true };
  } finally {
    signal.removeEventListener('abort', onAbort);
    // The engine's wait sees the hold decided (or decides it) at its next poll and ends; what it
    // finds changes nothing now.
    stopWaiting.abort();
    waiting.catch(() => {});
  }
}
