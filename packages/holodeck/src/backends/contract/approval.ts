/**
 * Approvals of tool calls: a session created with `approvals: 'ask'` yields an
 * `approval-request` event before a tool call that needs one, and waits for its answer.
 * Which calls need one is each backend's rule (see docs/architecture/backend-contract.md).
 */

/** Whether a session asks its consumer about tool calls that need approval, or refuses them. */
export type ApprovalMode = 'ask' | 'refuse';

/** Why a call that needs approval is refused where nobody can answer (a piped chat); part of its tool result. */
export const NO_APPROVER_REASON = 'nobody can approve it in this run (not a terminal)';

/** The answer to an approval request. A deny's `reason` reaches the model as the tool's error result. */
export type ApprovalDecision =
  | { behavior: 'allow'; scope: 'once' | 'session' }
  | { behavior: 'deny'; reason: string };

/** A tool call waiting for the user's decision. */
export interface ApprovalRequest {
  callId: string;
  /** The name the tool call carries (`Bash`, `mcp__server__tool`, a function tool's name). */
  toolName: string;
  arguments: Record<string, unknown>;
  /** Why this call needs approval, e.g. `claude.permission_mode: manual`. */
  reason: string;
  /**
   * Answers the request (the first answer counts; later ones are ignored). An unanswered request
   * keeps the turn waiting; `interrupt()` or `close()` denies it.
   */
  respond(decision: ApprovalDecision): void;
}
