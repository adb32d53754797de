import type { TokenUsage } from '../../execution-result.js';

/**
 * What a run has used so far, told as it happens (after each model response and tool call) so a
 * caller can stop it at a limit (`holodeck test`'s `limits:`). Every field is the run's running
 * total since its start, never one step's share: a listener compares, it never adds them up. When
 * the run ends, its ExecutionResult's token_usage equals the last progress's (the sum over every
 * model response, each counted once).
 */
export interface RunProgress {
  /** Tokens of every model response so far (each response counted once, its final usage when known). */
  token_usage: TokenUsage;
  /** Model responses so far, the one in progress included (subagents' too, on Claude). */
  messages: number;
  /** Tool calls the model made so far (top-level ones, as ExecutionResult.tool_calls). */
  tool_calls: number;
  /**
   * Cost so far in USD, from the same prices as the run's total (`pricing:`, the price table);
   * null when the backend only knows its cost at the end (the Claude CLI without `pricing:`) or
   * never (a model without a price).
   */
  cost_usd: number | null;
  /** The latest response called tools: the agent loop asks the model again once they return. */
  wants_next_message: boolean;
}

/** Told of a run's progress; it must return quickly (it is called from the run's own loop). */
export type ProgressListener = (progress: RunProgress) => void;

/** Per-turn options of `AgentSession.send`. */
export interface TurnOptions {
  /** Told of the turn's progress as it happens (the turn's own totals, from zero). */
  onProgress?: ProgressListener;
  /**
   * Aborted when the turn's owner stops it (a limit crossed); the owner then closes the session.
   * A backend whose tools run outside the loop that reports progress (the Claude CLI) holds each
   * tool call until that response's progress was reported, and runs none once this aborted.
   */
  signal?: AbortSignal;
}
