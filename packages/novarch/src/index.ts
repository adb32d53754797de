// Novarch: governance for agent tool calls (gate, judge, holds, audit). Explicit export list,
// pinned by test/unit/index.test.ts. The Claude Agent SDK is only imported as types here, so
// importing novarch works without the SDK installed.
export {
  type AugurToolHandler,
  type AugurToolOptions,
  augurAsyncTool,
} from './augur/augur-async-tool.js';
export { type ActiveSession, type AugurSessionOptions, augur } from './augur/augur-session.js';
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
  ActionContext,
  ActionRecord,
  ActionRelease,
  AuditEntry,
  AuditFilter,
  CallRefusal,
  Citations,
  EvidenceRecord,
  HoldRecord,
  HoldStatus,
  HoldWaiter,
  HoldWaiterIdentity,
  KillDetails,
  KillSource,
  NovarchStore,
  PendingHoldState,
  ReleaseResult,
  SessionKill,
  SessionRecord,
  SessionScope,
  Verdict,
  VerdictRecord,
  VerdictSource,
} from './model/index.js';
export {
  AnthropicLlmJudge,
  defaultNovarchConfig,
  judgeAction,
  type LlmJudge,
  loadNovarchConfig,
  loadRulesFile,
  loadRulesFiles,
  ModelLlmJudge,
  type ModelLlmJudgeOptions,
  type NovarchConfig,
  type Rule,
  type RuleSet,
  type RulesFileValidation,
  validateRulesFile,
} from './rules/index.js';
export { NovarchStoreError } from './store/novarch-store-error.js';
export { openSqliteStore, type SqliteStoreOptions } from './store/open-sqlite-store.js';
export { DEFAULT_REDACTIONS, type StoredValueOptions } from './store/stored-value-policy.js';
