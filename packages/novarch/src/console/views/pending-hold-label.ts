import { pendingHoldState } from '../../model/hold-state.js';
import type { HoldRecord } from '../../model/records.js';

/**
 * A pending hold as Triage counts it, the same words on every page: `pending (waiting)` while an
 * agent waits on it, `pending (abandoned: …)` when its agent stopped, `pending (expired: …)` past
 * its deadline (in both the write will not run, whatever is decided).
 */
export function pendingHoldLabel(hold: HoldRecord, now: Date = new Date()): string {
  const state = pendingHoldState(hold, now) ?? 'waiting';
  return state === 'waiting' ? 'pending (waiting)' : `pending (${state}: the write will not run)`;
}
