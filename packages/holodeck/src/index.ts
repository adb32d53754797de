// Public API of the holodeck package. Explicit list, pinned by test/unit/index.test.ts.

export type {
  AgentBackend,
  AgentSession,
  AgentToolNames,
  ApprovalDecision,
  ApprovalRequest,
  BackendChecks,
  BackendIssue,
  BackendOptions,
  BackendProfile,
  BackendWarning,
  ConversationMessage,
  CreateSessionOptions,
  ExecutionResult,
  IsolationLevel,
  OfferedTool,
  PendingHold,
  ResolvedHold,
  SessionEvent,
  SessionEventType,
  SideEffectProfile,
  TokenUsage,
  ToolCall,
  ToolResult,
} from './backends/contract/index.js';
export { backendProfile, selectBackend } from './backends/select-backend.js';
export { runOneShot } from './chat/run-one-shot.js';
export type { AgentConfig, ConfigWarning, LoadedAgent, WarningCode } from './config/index.js';
export { agentJsonSchema, WARNING_CODES } from './config/index.js';
export {
  AgentSessionError,
  ConfigError,
  type ConfigIssue,
  CredentialError,
  CredentialRejectedError,
  HoloDeckError,
  InterruptedError,
  RuntimeMissingError,
  UsageError,
} from './errors.js';
export type { MetricOutcome } from './evals/metric.js';
export { type AgentFileOptions, loadAgent, validateAgent } from './load-agent.js';
export type {
  CaseAttempt,
  CaseReport,
  ReportFormat,
  RunReport,
  RunSummary,
  TurnRecord,
} from './runner/report/index.js';
export { writeReport } from './runner/report/index.js';
export { runTestSuite, type TestRunOptions } from './runner/run-test-suite.js';
export type { HoloDeckTool, ToolExecuteOptions, ToolOutput } from './tools/index.js';
