import type { AnswerUsage } from 'judge-client';
import { tokenPricesOf } from '../backends/pricing/model-pricing.js';
import { OPENAI_PRICE_TABLE, openAiListPrices } from '../backends/pricing/openai-price-table.js';
import { costOfUsage, type TokenPrices } from '../backends/pricing/token-prices.js';
import type { LLMProvider, LoadedAgent, OptimizeConfig } from '../config/index.js';

/** The proposer's prices, or why there are none. */
export type ProposerPricing =
  | { kind: 'prices'; prices: TokenPrices; source: string }
  | { kind: 'unknown'; reason: string };

/**
 * How the proposer's calls are priced: `optimize.proposer.pricing`; else agent.yaml's `pricing:`
 * when the proposer is the agent's own model; else the OpenAI price table. Anthropic models have
 * no table here (the Claude CLI prices the agent's runs itself, not the proposer's direct calls).
 */
export function proposerPricing(
  agent: LoadedAgent,
  config: OptimizeConfig,
  model: LLMProvider,
): ProposerPricing {
  if (config.proposer?.pricing)
    return {
      kind: 'prices',
      prices: tokenPricesOf(config.proposer.pricing),
      source: 'optimize.proposer.pricing',
    };
  const own = agent.config.model;
  if (agent.config.pricing && own.provider === model.provider && own.name === model.name)
    return { kind: 'prices', prices: tokenPricesOf(agent.config.pricing), source: 'agent.yaml pricing' };
  if (model.provider === 'openai' || model.provider === 'azure_openai') {
    const prices = openAiListPrices(model.name);
    if (prices) return { kind: 'prices', prices, source: `price table ${OPENAI_PRICE_TABLE.version}` };
    return {
      kind: 'unknown',
      reason: `the price table (${OPENAI_PRICE_TABLE.version}) has no price for ${model.provider} model ${model.name}`,
    };
  }
  if (model.provider === 'ollama')
    return {
      kind: 'unknown',
      reason: `ollama runs ${model.name} on your own machine, so it has no per-token price`,
    };
  return {
    kind: 'unknown',
    reason: `HoloDeck has no price table for ${model.provider} model ${model.name} (the Claude CLI prices the agent's runs, not the proposer's calls)`,
  };
}

/**
 * Adds up what the proposer's answers cost as they arrive (judge-client's onUsage); `take()` says
 * what was spent since it was last called, so each trial (or skipped proposal) carries its own.
 */
export class ProposerMeter {
  #pending = 0;
  #unpriced = 0;

  constructor(private readonly pricing: ProposerPricing) {}

  /** Counts one billed answer. */
  readonly record = (usage: AnswerUsage): void => {
    if (this.pricing.kind !== 'prices') {
      this.#unpriced += 1;
      return;
    }
    this.#pending += costOfUsage(
      {
        prompt_tokens: usage.input_tokens,
        completion_tokens: usage.output_tokens,
        total_tokens: usage.input_tokens + usage.output_tokens,
        cache_read_tokens: usage.cache_read_tokens,
        cache_creation_tokens: usage.cache_creation_tokens,
      },
      this.pricing.prices,
      usage.counting,
    );
  };

  /** USD spent since the last call (0 when the answers came from the cache). */
  take(): number {
    const spent = this.#pending;
    this.#pending = 0;
    return spent;
  }

  /** Answers billed at no known price. */
  get unpriced(): number {
    return this.#unpriced;
  }
}
