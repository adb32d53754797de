export type { AuditEntry, AuditFilter, NovarchStore } from './novarch-store.js';
export {
  type ActionContext,
  type ActionRecord,
  type Citations,
  type EvidenceRecord,
  HOLD_SCHEMA_VERSION,
  type HoldRecord,
  type HoldStatus,
  type SessionRecord,
  type SessionScope,
  type Verdict,
  type VerdictRecord,
} from './records.js';
