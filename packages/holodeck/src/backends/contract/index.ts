export type {
  ExecutionResult,
  GovernanceRefusal,
  GovernanceSummary,
  GovernanceVerdict,
  TokenUsage,
  ToolCall,
  ToolKind,
  ToolResult,
} from '../../execution-result.js';
export { addTokenUsage, emptyTokenUsage } from '../../execution-result.js';
export type {
  AgentBackend,
  BackendOptions,
  ConversationMessage,
  CreateSessionOptions,
  InvokeOptions,
  ModelRoute,
  ModelTraffic,
  OfferedTool,
  PrewarmHint,
} from './agent-backend.js';
export type { AgentSession } from './agent-session.js';
export type { ApprovalDecision, ApprovalMode, ApprovalRequest } from './approval.js';
export { NO_APPROVER_REASON } from './approval.js';
export type {
  AgentToolNames,
  BackendChecks,
  BackendIssue,
  BackendProfile,
  IsolationLevel,
  SideEffectProfile,
} from './backend-profile.js';
export type {
  ElicitationAnswer,
  ElicitationMode,
  ElicitationQuestion,
  ElicitationRecord,
  ElicitationRequest,
  ElicitationValue,
} from './elicitation.js';
export type { PendingHold, ResolvedHold } from './governance-hold.js';
export type { ProgressListener, RunProgress, TurnOptions } from './run-progress.js';
export type { BackendWarning, SessionErrorCode, SessionEvent, SessionEventType } from './session-event.js';
export type { SessionTranscript, TranscriptToolCall, TranscriptTurn } from './session-transcript.js';
