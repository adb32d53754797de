export {
  lastCheckIn,
  type PendingHoldState,
  pendingHoldState,
} from './hold-state.js';
export type {
  ActionProposal,
  ActionRelease,
  AuditEntry,
  AuditFilter,
  CallRefusal,
  HoldDecisionOptions,
  HoldWaiterIdentity,
  NovarchDatabaseStore,
  NovarchStore,
  ReleaseResult,
  RuleSetStore,
  SessionBinding,
  WebhookDeliveryStore,
} from './novarch-store.js';
export {
  type ActionContext,
  type ActionRecord,
  type Citations,
  type EvidenceRecord,
  HOLD_SCHEMA_VERSION,
  type HoldApproval,
  type HoldApprovalPolicy,
  type HoldApproverGroups,
  type HoldEdit,
  type HoldRecord,
  type HoldStatus,
  type HoldWaiter,
  type KillDetails,
  type KillSource,
  type RuleReference,
  type RuleSetReference,
  type SessionKill,
  type SessionRecord,
  type SessionScope,
  type Verdict,
  type VerdictRecord,
  type VerdictSource,
} from './records.js';
export { canonicalRulesContent, rulesContentHash } from './rules-content-hash.js';
export type {
  RuleSetPush,
  RuleSetPushResult,
  StoredRuleSet,
  StoredRuleSetSummary,
} from './stored-rule-set.js';
export {
  WAITER_CHECK_IN_INTERVAL_MS,
  WAITER_STALE_AFTER_MS,
  WAITER_STALE_AFTER_VARIABLE,
  waiterCheckInIntervalMs,
  waiterStaleAfterMs,
} from './waiter-timing.js';
export type {
  NewWebhookDelivery,
  WebhookAttempt,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
} from './webhook-delivery.js';
