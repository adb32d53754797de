import { addTokenUsage, emptyTokenUsage, type TokenUsage } from '../backends/contract/index.js';
import { type GradingPricing, gradingPricing } from '../backends/pricing/grading-pricing.js';
import { costOfUsage } from '../backends/pricing/token-prices.js';
import type { GradingCall } from '../evals/metric.js';
import type { JudgeSpend } from './report/run-report.js';

/** No grading call at all. */
export function noJudgeSpend(): JudgeSpend {
  return { judge_token_usage: emptyTokenUsage(), judge_cost_usd: 0, judge_calls: { billed: 0, cached: 0 } };
}

/**
 * Adds up the grading calls of one attempt as metrics make them (MetricContext.onGradingCall),
 * pricing each with the built-in tables of its model (gradingPricing).
 */
export class GradingMeter {
  #usage = emptyTokenUsage();
  #cost: number | null = 0;
  #unknownReason: string | undefined;
  #billed = 0;
  #cached = 0;
  readonly #pricing = new Map<string, GradingPricing>();

  /** Counts one call. */
  readonly record = (call: GradingCall): void => {
    if (call.cached) {
      this.#cached += 1;
      return;
    }
    this.#billed += 1;
    const { usage } = call;
    if (usage === undefined) {
      this.#unknown(
        `the ${call.kind} API (${call.provider} ${call.model}) did not say how many tokens a call used`,
      );
      return;
    }
    const tokens: TokenUsage = {
      prompt_tokens: usage.input_tokens,
      completion_tokens: usage.output_tokens,
      total_tokens: usage.input_tokens + usage.output_tokens,
      cache_read_tokens: usage.cache_read_tokens,
      cache_creation_tokens: usage.cache_creation_tokens,
    };
    this.#usage = addTokenUsage(this.#usage, tokens);
    const pricing = this.#pricingOf(call);
    if (pricing.kind === 'unknown') this.#unknown(pricing.reason);
    else if (this.#cost !== null) this.#cost += costOfUsage(tokens, pricing.prices, usage.counting);
  };

  /** What was counted so far. */
  spend(): JudgeSpend {
    return {
      judge_token_usage: { ...this.#usage },
      // Rounded as each call's cost is: a sum of floats carries noise.
      judge_cost_usd: this.#cost === null ? null : Math.round(this.#cost * 1e10) / 1e10,
      ...(this.#unknownReason !== undefined ? { judge_cost_unknown_reason: this.#unknownReason } : {}),
      judge_calls: { billed: this.#billed, cached: this.#cached },
    };
  }

  #unknown(reason: string): void {
    this.#cost = null;
    this.#unknownReason ??= reason;
  }

  #pricingOf(call: GradingCall): GradingPricing {
    const key = `${call.kind}\u0000${call.provider}\u0000${call.model}`;
    let pricing = this.#pricing.get(key);
    if (pricing === undefined) {
      pricing = gradingPricing(call);
      this.#pricing.set(key, pricing);
    }
    return pricing;
  }
}
