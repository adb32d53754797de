import type { HoldRecord } from './records.js';

// A pending hold only means something while a process waits on it: that process runs the write
// once an operator approves. It checks in every WAITER_CHECK_IN_INTERVAL_MS while it waits
// (`NovarchEngine.awaitHold`), so a hold with no check-in for WAITER_STALE_AFTER_MS has lost its
// waiter (the process was killed or crashed) and no decision on it will reach anything.

/** How often a process waiting on a hold checks in. */
export const WAITER_CHECK_IN_INTERVAL_MS = 2_000;

/**
 * How long without a check-in before a pending hold counts as abandoned: five missed check-ins,
 * so a waiter stalled for a few seconds (a loaded machine, another process holding the store's
 * write lock) is not taken for a dead one.
 */
export const WAITER_STALE_AFTER_MS = 5 * WAITER_CHECK_IN_INTERVAL_MS;

/**
 * What a pending hold is, seen from the outside:
 * - `waiting`: a process checked in recently; a decision reaches it.
 * - `abandoned`: no check-in for `WAITER_STALE_AFTER_MS`: the process that waited has stopped,
 *   so nothing will run the write, whatever an operator decides.
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
  return at - Date.parse(lastCheckIn(hold)) > WAITER_STALE_AFTER_MS ? 'abandoned' : 'waiting';
}
