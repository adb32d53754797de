import type { ElicitationAnswer, ElicitationQuestion } from '../../tools/index.js';

/**
 * MCP elicitation: an MCP server asks the user for input during one of its tool calls
 * (`elicitation/create`). A session created with `elicitations: 'ask'` yields an
 * `elicitation-request` event and waits for its answer; otherwise (the default, for runs nobody
 * watches) the request is declined at once. Either way the session then yields
 * `elicitation-resolved`, a record without the answer's values (see docs/architecture/backend-contract.md).
 */

/** Whether a session asks its consumer about MCP elicitation requests, or declines them. */
export type ElicitationMode = 'ask' | 'decline';

export type { ElicitationAnswer, ElicitationQuestion, ElicitationValue } from '../../tools/index.js';

/** An elicitation request waiting for the user's answer. */
export interface ElicitationRequest extends ElicitationQuestion {
  /** Unique within the session. */
  id: string;
  /**
   * Answers the request (the first answer counts). An unanswered request keeps the tool call
   * waiting; `interrupt()` or `close()` cancels it.
   */
  respond(answer: ElicitationAnswer): void;
}

/**
 * What the session reports of an elicitation once it is answered: who asked, what for, which
 * fields were given, and the action. Never the values: a form may ask for a secret.
 */
export interface ElicitationRecord {
  id: string;
  server: string;
  message: string;
  mode: 'form' | 'url';
  /** The names of the fields the answer filled in (empty unless accepted). */
  fields: string[];
  action: ElicitationAnswer['action'];
  /** `user`: the user answered; `policy`: declined without asking (`elicitations: 'decline'`, or nobody could answer). */
  answeredBy: 'user' | 'policy';
}
