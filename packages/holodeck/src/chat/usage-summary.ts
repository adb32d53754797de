import type { ExecutionResult } from '../backends/contract/index.js';

/** Tokens and cost added up over the chat; cost stays unknown once any turn's cost was. */
export class UsageSummary {
  turns = 0;
  promptTokens = 0;
  completionTokens = 0;
  cacheReadTokens = 0;
  cost: number | null = 0;
  /** Why the cost is unknown: the reason of the first turn without one. */
  costUnknownReason: string | undefined;

  add(result: ExecutionResult): void {
    if (result.cost_usd === null) this.costUnknownReason ??= result.cost_unknown_reason;
    this.turns += 1;
    this.promptTokens += result.token_usage.prompt_tokens;
    this.completionTokens += result.token_usage.completion_tokens;
    this.cacheReadTokens += result.token_usage.cache_read_tokens;
    this.cost = this.cost === null || result.cost_usd === null ? null : this.cost + result.cost_usd;
  }

  describe(): string {
    const cost =
      this.cost === null
        ? `cost unknown (${this.costUnknownReason ?? 'the provider reports no price'})`
        : `$${this.cost.toFixed(4)}`;
    return `${this.turns} turn(s) · ${formatCount(this.promptTokens)} in / ${formatCount(this.completionTokens)} out tokens (${formatCount(this.cacheReadTokens)} from cache) · ${cost}`;
  }
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** The context window of a model when HoloDeck knows it (Claude models: 200k tokens). */
export function contextWindow(provider: string): number | undefined {
  return provider === 'anthropic' ? 200_000 : undefined;
}

/**
 * The dim line after a turn: tokens, cost when known, how full the context is (in tokens on every
 * backend, with the share of the window when HoloDeck knows it), and the time the turn took without
 * `waitedMs`, the time it waited for the human to answer approvals.
 */
export function turnFooter(
  result: ExecutionResult,
  window: number | undefined,
  waitedMs = 0,
): { text: string; warning?: string } {
  const usage = result.token_usage;
  const cost = result.cost_usd === null ? 'cost unknown' : `$${result.cost_usd.toFixed(4)}`;
  // One request's context: what the last model call was sent, estimated per model call of the turn.
  const context = Math.round(
    (usage.prompt_tokens + usage.cache_read_tokens + usage.cache_creation_tokens) /
      Math.max(1, result.num_turns),
  );
  const share = window ? Math.min(100, Math.round((context / window) * 100)) : undefined;
  const contextText = `context ${formatCount(context)} tokens${share !== undefined ? ` (${share}% of ${formatCount(window ?? 0)})` : ''}`;
  const took = Math.max(0, result.duration_ms - waitedMs);
  const text = `  ${formatCount(usage.prompt_tokens + usage.cache_read_tokens)} in · ${formatCount(usage.completion_tokens)} out · ${cost} · ${contextText} · ${(took / 1000).toFixed(1)}s`;
  return share !== undefined && share >= 80
    ? { text, warning: `the context is ${share}% full: /clear starts a new conversation` }
    : { text };
}
