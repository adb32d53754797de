import type { ActionContext, Citations } from '../model/records.js';
import { errorMessage, isRecord } from '../support.js';

// The vocabulary every way of governing a tool call shares (the tool governor, the decorator
// floor): what a governed write is, how its judgement ends, why a session stopped. Nothing here
// knows an agent framework.

/** Why a governed session stopped: what a latch keeps and a `NovarchKillError` carries. */
export interface SessionStop {
  citations: Citations;
  /** The action whose verdict stopped the session; absent for an operator kill. */
  actionId?: string;
}

/** A write tool as the core judges it: the action it becomes and how its input is read. */
export interface GovernedWrite<Args> {
  /** The name refusals show the model. */
  name: string;
  /** The tool name the action carries, the one team rules match. */
  toolName: string;
  actionType: string;
  /** Builds the action's context from the tool input; a throw refuses the write. */
  contextBuilder: (args: Args) => ActionContext;
  /**
   * Checks an operator's edited input against the tool's input schema (undefined: it fits). A
   * write without it, or whose caller cannot run an edited input, takes no edit (refused).
   */
  validateInput?: ((args: Record<string, unknown>) => string | undefined) | undefined;
  /** Whether the caller can run an edited input (`run` with `executeEdited`); default no. */
  acceptsEdits?: boolean | undefined;
}

/**
 * How the judgement of a write ends. Reasons are model-readable, without the `Novarch: ` prefix
 * (`refusalText` adds it):
 * - `run`: judge pass or operator approval, released by the store (atomically with a check that
 *   the session was not killed: a kill stored before the release wins);
 * - `refuse`: Novarch could not judge the write (a context builder or the store failed, the call
 *   was aborted); nothing was decided against the session;
 * - `deny`: an operator denied the write; the session goes on;
 * - `stop`: the session stopped (judge kill, skipped or timed-out hold, operator kill); it is
 *   stored as killed, and every later call of the session is refused.
 */
export type WriteJudgement =
  | {
      type: 'run';
      actionId: string;
      /** Approve with edit: the input it runs with instead of the agent's (judged again, released). */
      input?: Record<string, unknown>;
    }
  | { type: 'refuse'; reason: string }
  | { type: 'deny'; reason: string; citations: Citations; actionId: string }
  | { type: 'stop'; reason: string; stop: SessionStop };

/** The reason a refusal shows the model: worded as the hook gate words its refusals. */
export function refusalText(reason: string): string {
  return `Novarch: ${reason}`;
}

/** The refusal of a store or internal failure: never a pass. */
export function failedClosed(error: unknown): string {
  return `the gate failed (${errorMessage(error)}); refused to be safe`;
}

/**
 * Whether a tool's output reports an error by the MCP convention (`{ isError: true }`, as an MCP
 * `CallToolResult` does): the default way a read's output is told failed.
 */
export function hasErrorFlag(output: unknown): boolean {
  return isRecord(output) && output.isError === true;
}
