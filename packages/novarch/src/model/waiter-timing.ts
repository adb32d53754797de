import { NovarchEnvironmentError } from '../novarch-error.js';

// A pending hold only means something while a process waits on it: that process runs the write
// once an operator approves. It checks in every `waiterCheckInIntervalMs()` while it waits
// (`NovarchEngine.awaitHold`), so a hold with no check-in for `waiterStaleAfterMs()` has lost its
// waiter (the process was killed or crashed) and no decision on it will reach anything.

/** How often a process waiting on a hold checks in, by default: a fifth of the stale time. */
export const WAITER_CHECK_IN_INTERVAL_MS = 2_000;

/**
 * How long without a check-in before a pending hold counts as abandoned, by default: five missed
 * check-ins, so a waiter stalled for a few seconds (a loaded machine, another process holding the
 * store's write lock) is not taken for a dead one.
 */
export const WAITER_STALE_AFTER_MS = 5 * WAITER_CHECK_IN_INTERVAL_MS;

/**
 * A test and operations knob, read here and nowhere else: the stale time in milliseconds for this
 * process (the agent's check-ins come at a fifth of it). Every process on one store must agree:
 * an operator CLI with a shorter time than its agents' check-ins takes live waiters for dead ones.
 */
export const WAITER_STALE_AFTER_VARIABLE = 'NOVARCH_WAITER_STALE_AFTER_MS';

const MIN_STALE_AFTER_MS = 100;
const MAX_STALE_AFTER_MS = 3_600_000;

/** The stale time: `$NOVARCH_WAITER_STALE_AFTER_MS` when set, else `WAITER_STALE_AFTER_MS` (10 s). */
export function waiterStaleAfterMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const text = env[WAITER_STALE_AFTER_VARIABLE]?.trim();
  if (text === undefined || text === '') return WAITER_STALE_AFTER_MS;
  const value = /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= MIN_STALE_AFTER_MS && value <= MAX_STALE_AFTER_MS))
    throw new NovarchEnvironmentError(
      `${WAITER_STALE_AFTER_VARIABLE} is "${text}": it must be a whole number of milliseconds from ` +
        `${MIN_STALE_AFTER_MS} to ${MAX_STALE_AFTER_MS} (default ${WAITER_STALE_AFTER_MS}). Unset it to use the default.`,
    );
  return value;
}

/** How often a waiting process checks in: a fifth of `waiterStaleAfterMs(env)` (2 s by default). */
export function waiterCheckInIntervalMs(
  env: Readonly<Record<string, string | undefined>> = process.env,
): number {
  return Math.floor(waiterStaleAfterMs(env) / 5);
}
