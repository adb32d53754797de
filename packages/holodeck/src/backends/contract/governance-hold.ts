/**
 * Novarch holds as a session reports them: a governed write that team rules hold for a human
 * operator makes the turn wait; the session yields `hold-pending` when the wait starts and
 * `hold-resolved` when it ends (see docs/architecture/backend-contract.md).
 */

/** A governed write waiting for an operator's decision. */
export interface PendingHold {
  holdId: string;
  /** The held tool call's id (as its `tool-call` event carries it), when the backend knows it. */
  callId?: string;
  /** The tool as the rules know it (function tools: `mcp__holodeck_tools__<name>`). */
  toolName: string;
  actionType: string;
  /** The rules that held it, and the judge's rationale. */
  ruleIds: string[];
  rationale: string;
  createdAt: string;
  /** When the agent stops waiting: no decision by then refuses the write and stops the session. */
  deadline: string;
  /** Operator commands that decide it, ready to run in another terminal. */
  commands: { approve: string; deny: string };
  /** The hold's page in the Novarch console, when the agent is governed by a Novarch server. */
  consoleUrl?: string;
}

/** How a hold ended: an operator's decision, or the deadline. */
export interface ResolvedHold {
  holdId: string;
  callId?: string;
  toolName: string;
  /** `approved`: the write runs (unless the session was stopped meanwhile); otherwise it is refused. */
  status: 'approved' | 'denied' | 'skipped' | 'timed_out';
  /** Whether this ends the governed session (skipped, or no decision by the deadline). */
  stopsSession: boolean;
  /** The operator (or `novarch` for a timeout). */
  decidedBy?: string;
  rationale?: string;
}
