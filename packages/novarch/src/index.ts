// Novarch: governance for agent tool calls (gate, judge, holds, audit). Explicit export list,
// pinned by test/unit/index.test.ts. The Claude Agent SDK is only imported as types here, so
// importing novarch works without the SDK installed.
export {
  type AugurToolHandler,
  type AugurToolOptions,
  augurAsyncTool,
} from './augur/augur-async-tool.js';
export { type AugurSessionOptions, augur } from './augur/augur-session.js';
export type { EngineStore, GovernanceEngine } from './engine/governance-engine.js';
export {
  ABORTED_HOLD_RATIONALE,
  ADOPT_DEPLOYMENT_WINDOW,
  DEFAULT_JUDGE_TIMEOUT_MS,
  type DecideOptions,
  type Decision,
  NovarchEngine,
  type NovarchEngineOptions,
  type ProposedAction,
} from './engine/novarch-engine.js';
export {
  formatFileIssue,
  NovarchConfigError,
  NovarchError,
  type NovarchFileIssue,
  NovarchKillError,
  RulesError,
} from './errors.js';
export { GOVERNED_SESSION_ENV } from './gate/governed-environment.js';
export type { HoldEvent, HoldListener } from './gate/hold-listener.js';
export { NovarchHookGate, type NovarchHookGateOptions } from './gate/novarch-hook-gate.js';
export {
  DEFAULT_UNMAPPED_ALLOWLIST,
  genericContext,
  type ToolKind,
  type WriteSpec,
} from './gate/write-spec.js';
export {
  type GovernedToolCall,
  type GovernedToolOutcome,
  NovarchToolGovernor,
  type NovarchToolGovernorOptions,
} from './governor/novarch-tool-governor.js';
export type {
  AuditChainFilter,
  AuditChainHead,
  AuditChainReport,
  AuditLink,
  AuditLinkKind,
  AuditProblem,
  AuditProblemKind,
  AuditRecordContent,
  ChainedRecords,
} from './model/audit-chain.js';
export type {
  ActionContext,
  ActionProposal,
  ActionRecord,
  ActionRelease,
  AuditEntry,
  AuditFilter,
  CallRefusal,
  Citations,
  EvidenceRecord,
  HoldApproval,
  HoldApprovalPolicy,
  HoldApproverGroups,
  HoldDecisionOptions,
  HoldEdit,
  HoldRecord,
  HoldStatus,
  HoldWaiter,
  HoldWaiterIdentity,
  KillDetails,
  KillSource,
  NewWebhookDelivery,
  NovarchDatabaseStore,
  NovarchStore,
  PendingHoldState,
  ReleaseResult,
  RuleReference,
  RuleSetPush,
  RuleSetPushResult,
  RuleSetReference,
  RuleSetStore,
  SessionBinding,
  SessionKill,
  SessionRecord,
  SessionScope,
  StoredRuleSet,
  StoredRuleSetSummary,
  Verdict,
  VerdictRecord,
  VerdictSource,
  WebhookAttempt,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookDeliveryStore,
} from './model/index.js';
export type { AuditChainStore } from './model/novarch-store.js';
export { canonicalRulesContent, rulesContentHash } from './model/rules-content-hash.js';
export {
  buildHoldWebhookPayload,
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  HOLD_CREATED_EVENT,
  type HoldCreatedEvent,
  type HoldWebhookPayload,
  HoldWebhookPayloadSchema,
  MIN_WEBHOOK_SECRET_LENGTH,
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhookSignature,
  WEBHOOK_DEFAULTS,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookConfigError,
  WebhookNotifier,
  type WebhookNotifierOptions,
  type WebhookTarget,
  type WebhookVerification,
} from './notify/index.js';
export { NovarchServerError } from './remote/novarch-http-client.js';
export {
  RemoteEngine,
  type RemoteEngineOptions,
  remoteEngine,
  remoteEngineFromEnv,
} from './remote/remote-engine.js';
export {
  AnthropicLlmJudge,
  type DiffLine,
  defaultNovarchConfig,
  diffLines,
  judgeAction,
  type LlmJudge,
  loadNovarchConfig,
  loadRulesFile,
  loadRulesFiles,
  ModelLlmJudge,
  type ModelLlmJudgeOptions,
  NOT_REJUDGED_LLM,
  type NovarchConfig,
  pushRules,
  type ReplayedDecision,
  type ReplayOptions,
  type ReplayReport,
  type Rule,
  type RuleSet,
  type RuleSource,
  type RulesFileValidation,
  type RulesPush,
  replayRules,
  ruleSetContentHash,
  ruleSetFromStored,
  storedRuleSource,
  validateRulesFile,
  validateRulesSource,
} from './rules/index.js';
export {
  type NovarchServerOptions,
  type RunningNovarchServer,
  startNovarchServer,
} from './server/start-novarch-server.js';
export type { ActiveSession } from './session/active-session.js';
export { NovarchStoreError, VerdictConflictError } from './store/novarch-store-error.js';
export {
  DEFAULT_POSTGRES_CONNECT_TIMEOUT_MS,
  DEFAULT_POSTGRES_LOCK_WAIT_MS,
  DEFAULT_POSTGRES_MAX_CONNECTIONS,
  openPostgresStore,
  type PostgresStoreOptions,
} from './store/open-postgres-store.js';
export { openSqliteStore, type SqliteStoreOptions } from './store/open-sqlite-store.js';
export {
  parseStoreUrl,
  redactStoreUrl,
  type StoreUrl,
  type StoreUrlBase,
  StoreUrlError,
} from './store/parse-store-url.js';
export { DEFAULT_REDACTIONS, type StoredValueOptions } from './store/stored-value-policy.js';
