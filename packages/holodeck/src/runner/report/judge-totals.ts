import { addTokenUsage, emptyTokenUsage } from '../../backends/contract/index.js';
import type { CaseAttempt, JudgeSpend } from './run-report.js';

/** Said for a report holding attempts saved before HoloDeck counted the judge's spend. */
export const UNCOUNTED_JUDGE_REASON =
  'some attempts were saved before HoloDeck counted the judge calls (run them again to count them)';

/**
 * The judge spend of a run: the sum over its attempts, each attempt's own sum of its judge calls.
 * Unknown (null) as soon as one attempt's is, or one attempt was saved without it.
 */
export function judgeTotals(attempts: readonly CaseAttempt[]): JudgeSpend {
  let usage = emptyTokenUsage();
  let cost: number | null = 0;
  let reason: string | undefined;
  const calls = { billed: 0, cached: 0 };
  for (const attempt of attempts) {
    if (attempt.judge_token_usage) usage = addTokenUsage(usage, attempt.judge_token_usage);
    calls.billed += attempt.judge_calls?.billed ?? 0;
    calls.cached += attempt.judge_calls?.cached ?? 0;
    const part = attempt.judge_cost_usd;
    if (part === undefined || part === null) {
      cost = null;
      reason ??= part === undefined ? UNCOUNTED_JUDGE_REASON : attempt.judge_cost_unknown_reason;
    } else if (cost !== null) cost += part;
  }
  return {
    judge_token_usage: usage,
    // Rounded as each part is: a sum of floats carries noise.
    judge_cost_usd: cost === null ? null : Math.round(cost * 1e10) / 1e10,
    ...(reason !== undefined ? { judge_cost_unknown_reason: reason } : {}),
    judge_calls: calls,
  };
}
