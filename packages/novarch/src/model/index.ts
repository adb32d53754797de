export {
  lastCheckIn,
  type PendingHoldState,
  pendingHoldState,
  WAITER_CHECK_IN_INTERVAL_MS,
  WAITER_STALE_AFTER_MS,
} from './hold-state.js';
export type { AuditEntry, AuditFilter, HoldWaiterIdentity, NovarchStore } from './novarch-store.js';
export {
  type ActionContext,
  type ActionRecord,
  type Citations,
  type EvidenceRecord,
  HOLD_SCHEMA_VERSION,
  type HoldRecord,
  type HoldStatus,
  type HoldWaiter,
  type SessionRecord,
  type SessionScope,
  type Verdict,
  type VerdictRecord,
} from './records.js';
