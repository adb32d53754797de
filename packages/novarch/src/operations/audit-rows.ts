import { type PendingHoldState, pendingHoldState } from '../model/hold-state.js';
import type { AuditEntry } from '../model/novarch-store.js';

/** An audit entry as `novarch audit` shows it: with its hold's state at `now` when pending. */
export interface AuditRow extends AuditEntry {
  /** For a pending hold: whether an agent process still waits on it (see `hold-state.ts`). */
  holdState?: PendingHoldState;
}

export function auditRows(entries: readonly AuditEntry[], now: Date): AuditRow[] {
  return entries.map((entry) => {
    const holdState = entry.hold === undefined ? undefined : pendingHoldState(entry.hold, now);
    return holdState === undefined ? entry : { ...entry, holdState };
  });
}
