import type { WarningCode } from '../../config/warning-code.js';
import type { ExecutionResult } from '../../execution-result.js';
import type { ApprovalRequest } from './approval.js';
import type { ElicitationRecord, ElicitationRequest } from './elicitation.js';
import type { PendingHold, ResolvedHold } from './governance-hold.js';

/** A non-fatal problem the backend wants the user to see (e.g. an ignored setting). */
export interface BackendWarning {
  code: WarningCode;
  message: string;
  /** The agent.yaml setting it is about (e.g. `model.temperature`, `tools[2].source`), when there is one. */
  path?: string;
}

/**
 * What `AgentSession.sendStreaming` yields: one discriminated union on `type`, noun-then-verb.
 * Consumers switch on `type` exhaustively; errors arrive in band as `error` before `finish`.
 */
export type SessionEvent =
  | { type: 'session-start'; sessionId: string; model: string; tools: string[]; warnings: BackendWarning[] }
  | { type: 'text-delta'; text: string }
  | { type: 'thinking-delta'; text: string }
  | { type: 'tool-call'; callId: string; name: string; arguments: Record<string, unknown> }
  | { type: 'tool-result'; callId: string; name: string; result: string; isError: boolean }
  /** Only in sessions created with `approvals: 'ask'`: the turn waits until `request.respond()`. */
  | { type: 'approval-request'; request: ApprovalRequest }
  /** Only in sessions created with `elicitations: 'ask'`: an MCP server asks the user; its tool call waits. */
  | { type: 'elicitation-request'; request: ElicitationRequest }
  /** An MCP server's elicitation was answered (by the user, or declined by the session's policy). */
  | { type: 'elicitation-resolved'; elicitation: ElicitationRecord }
  /** Only for agents with a `governance:` block: a write held for an operator; the turn waits. */
  | { type: 'hold-pending'; hold: PendingHold }
  /** The hold was decided (or timed out); the turn goes on. */
  | { type: 'hold-resolved'; hold: ResolvedHold }
  /** Something went wrong in the turn: `code` says what, `cause` is the underlying error when there is one. */
  | { type: 'error'; code: SessionErrorCode; message: string; cause?: unknown }
  | { type: 'finish'; result: ExecutionResult };

/**
 * What an in-band `error` event reports: `run-failed` the turn's result is an error (its
 * error_reason; a `finish` follows), `process-failed` the agent process died or did not start (no
 * `finish`), `session-not-saved` the conversation could not be saved for resuming,
 * `governance-unreadable` Novarch's verdicts of the turn could not be read (no `finish`).
 */
export type SessionErrorCode =
  | 'run-failed'
  | 'process-failed'
  | 'session-not-saved'
  | 'governance-unreadable';

/** The `type` tags of SessionEvent, for exhaustive switches and docs. */
export type SessionEventType = SessionEvent['type'];
