export {
  lastCheckIn,
  type PendingHoldState,
  pendingHoldState,
  WAITER_CHECK_IN_INTERVAL_MS,
  WAITER_STALE_AFTER_MS,
} from './hold-state.js';
export type {
  ActionRelease,
  AuditEntry,
  AuditFilter,
  CallRefusal,
  HoldWaiterIdentity,
  NovarchStore,
  ReleaseResult,
} from './novarch-store.js';
export {
  type ActionContext,
  type ActionRecord,
  type Citations,
  type EvidenceRecord,
  HOLD_SCHEMA_VERSION,
  type HoldRecord,
  type HoldStatus,
  type HoldWaiter,
  type KillDetails,
  type KillSource,
  type SessionKill,
  type SessionRecord,
  type SessionScope,
  type Verdict,
  type VerdictRecord,
  type VerdictSource,
} from './records.js';
