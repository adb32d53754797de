import type { PendingHoldState } from '../model/hold-state.js';
import type { HoldRecord } from '../model/records.js';
import { waiterCheckInIntervalMs } from '../model/waiter-timing.js';

// The words for whether anything waits on a pending hold, shared by `holds show` and the
// refusals of `holds approve|deny|skip`.

/** A hold's status with its state when pending: `pending (abandoned)`, `approved`. */
export function holdStatusLabel(hold: HoldRecord, state: PendingHoldState | undefined): string {
  return state === undefined ? hold.status : `${hold.status} (${state})`;
}

/** `since T (pid P on HOST)`, or `since it was created at T` when no process has checked in. */
export function sinceLastCheckIn(hold: HoldRecord): string {
  const { waiter } = hold;
  return waiter === undefined
    ? `since it was created at ${hold.createdAt}`
    : `since ${waiter.seenAt} (pid ${waiter.pid} on ${waiter.host})`;
}

/** The `waiter` line of `holds show`: who last checked in, and when. */
export function describeWaiter(hold: HoldRecord): string {
  const { waiter } = hold;
  return waiter === undefined
    ? 'no process has checked in'
    : `pid ${waiter.pid} on ${waiter.host}, last check-in ${waiter.seenAt}`;
}

/** Why nothing waits on an abandoned or expired hold, as a clause: `no agent process has …`. */
export function whyNothingWaits(hold: HoldRecord, state: Exclude<PendingHoldState, 'waiting'>): string {
  return state === 'abandoned'
    ? `no agent process has checked in on it ${sinceLastCheckIn(hold)}`
    : `its deadline (${hold.deadline}) passed while it was still pending`;
}

/** What a pending hold's state means for a decision on it, in words (`holds show`). */
export function explainHoldState(hold: HoldRecord, state: PendingHoldState): string {
  if (state === 'waiting') {
    const every = waiterCheckInIntervalMs() / 1000;
    return `An agent process waits on it (checking in every ${every} s): a decision reaches it at once.`;
  }
  const why = state === 'abandoned' ? whyNothingWaits(hold, state) : 'its deadline has passed';
  return (
    `Nothing waits on it: ${why}; approving it will not run anything. ` +
    'If the write is still wanted, the agent must retry the action.'
  );
}

/** `text` as a sentence: a final period unless it already ends like one. */
export function asSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
