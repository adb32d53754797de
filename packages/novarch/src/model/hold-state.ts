import type { HoldRecord } from './records.js';
import { waiterStaleAfterMs } from './waiter-timing.js';

export { WAITER_CHECK_IN_INTERVAL_MS, WAITER_STALE_AFTER_MS } from './waiter-timing.js';

/**
 * What a pending hold is, seen from the outside:
 * - `waiting`: a process checked in recently; a decision reaches it.
 * - `abandoned`: no check-in for `waiterStaleAfterMs()` (10 s unless NOVARCH_WAITER_STALE_AFTER_MS
 *   says otherwise): the process that waited has stopped, so nothing will run the write, whatever an operator decides.
 * - `expired`: the deadline has passed: the write will not run (a decision now is stored as
 *   `timed_out`), and whoever waited has stopped.
 */
export const PENDING_HOLD_STATES = ['waiting', 'abandoned', 'expired'] as const;
export type PendingHoldState = (typeof PENDING_HOLD_STATES)[number];

export function isPendingHoldState(value: unknown): value is PendingHoldState {
  return PENDING_HOLD_STATES.some((state) => state === value);
}

/**
 * When a process last showed that it waits on the hold: its last check-in, else the hold's
 * creation (the process that creates a hold is the one that waits on it). Holds stored before
 * Novarch recorded check-ins thus count from their creation.
 */
export function lastCheckIn(hold: HoldRecord): string {
  return hold.waiter?.seenAt ?? hold.createdAt;
}

/** The state of a pending hold at `now`; `undefined` for a hold already decided. */
export function pendingHoldState(hold: HoldRecord, now: Date): PendingHoldState | undefined {
  if (hold.status !== 'pending') return undefined;
  const at = now.getTime();
  // `>=`: the engine times out, and the store refuses a decision, from the deadline on.
  if (at >= Date.parse(hold.deadline)) return 'expired';
  return at - Date.parse(lastCheckIn(hold)) > waiterStaleAfterMs() ? 'abandoned' : 'waiting';
}
