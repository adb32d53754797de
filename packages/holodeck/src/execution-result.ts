// What a run returned, as the backend contract (backends/contract) reports it. Kept at the bottom
// layer, with no imports, so errors.ts can type AgentSessionError.partial without importing the
// contract (which imports config: that was the cycle config → errors → contract → config).

/** What kind of tool a call went to: a runtime built-in, an agent.yaml function or retrieval tool, an MCP server's tool. */
export type ToolKind = 'builtin' | 'function' | 'mcp' | 'retrieval';

/** One tool call the agent made during a run. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
  call_id: string;
  /** The tool's kind, as the backend knows it from agent.yaml; absent in runs saved before it was recorded. */
  kind?: ToolKind;
}

/** The result a tool returned, paired with its call by `call_id`. */
export interface ToolResult {
  call_id: string;
  result: string;
  is_error: boolean;
}

/** Token counts, named provider-neutrally (Anthropic input/output → prompt/completion). */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
}

/** One write Novarch's judge (the team rules) decided during the run. */
export interface GovernanceVerdict {
  tool: string;
  action_type: string;
  /** The judge's verdict (never a refusal of the gate's, which is in `GovernanceSummary.refusals`). */
  verdict: 'pass' | 'kill' | 'hold';
  /** For a hold: what an operator (or the deadline) made of it. */
  hold_status?: 'pending' | 'approved' | 'denied' | 'skipped' | 'timed_out';
  rule_ids: string[];
  rationale: string;
}

/**
 * A call Novarch refused without a judge's verdict, or a judged write that did not run after all:
 * `gate` for refusals of Novarch's gate itself (an unmapped tool, a write beside other calls, a
 * session stopped before the write was let run, a store failure), `permissions` for a call the
 * agent's own permission rules refused after the gate (it did not run).
 */
export interface GovernanceRefusal {
  tool: string;
  action_type: string;
  source: 'gate' | 'permissions';
  rationale: string;
}

/** What Novarch decided in a governed run (agent.yaml `governance:`). */
export interface GovernanceSummary {
  session_id: string;
  /** The judge's verdicts, one per judged write, oldest first. */
  verdicts: GovernanceVerdict[];
  /**
   * Refusals without a judgement (and notes that a judged write did not run), oldest first. Every
   * governed run sets it; absent only in run reports written before HoloDeck recorded refusals.
   */
  refusals?: GovernanceRefusal[];
  /** True when the session was latched (judge kill, hold timeout/skip, operator kill). */
  killed: boolean;
}

/** Provider-agnostic outcome of one agent invocation (one user message, possibly many model turns). */
export interface ExecutionResult {
  /** The agent's final text response ('' when the run failed before answering). */
  response: string;
  tool_calls: ToolCall[];
  tool_results: ToolResult[];
  token_usage: TokenUsage;
  /** Validated structured object when `response_format` is configured, otherwise undefined. */
  structured_output?: unknown;
  /** Number of model turns the agent loop used. */
  num_turns: number;
  /** True when the agent run itself failed (not an evaluation failure). */
  is_error: boolean;
  /** Human-readable reason when `is_error` is true. */
  error_reason?: string;
  /**
   * Cost in USD of this run or turn alone (a session turn does not include the turns before it);
   * `null` when the backend cannot know it.
   */
  cost_usd: number | null;
  /** Why `cost_usd` is null (a local model, a model without a known price), when it is. */
  cost_unknown_reason?: string;
  /** Wall time of the invocation in milliseconds. */
  duration_ms: number;
  /** Id of the conversation, usable to resume it later. */
  session_id?: string;
  /** Novarch's decisions, when the agent is governed. */
  governance?: GovernanceSummary;
}

/** A zeroed TokenUsage. */
export function emptyTokenUsage(): TokenUsage {
  return {
    prompt_tokens: 0,
    completion_tokens: 0,
    total_tokens: 0,
    cache_read_tokens: 0,
    cache_creation_tokens: 0,
  };
}

/** The sum of two token counts. */
export function addTokenUsage(total: TokenUsage, usage: TokenUsage): TokenUsage {
  return {
    prompt_tokens: total.prompt_tokens + usage.prompt_tokens,
    completion_tokens: total.completion_tokens + usage.completion_tokens,
    total_tokens: total.total_tokens + usage.total_tokens,
    cache_read_tokens: total.cache_read_tokens + usage.cache_read_tokens,
    cache_creation_tokens: total.cache_creation_tokens + usage.cache_creation_tokens,
  };
}
