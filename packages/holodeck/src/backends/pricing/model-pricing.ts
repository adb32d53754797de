import type { AgentConfig } from '../../config/index.js';
import { OPENAI_PRICE_TABLE, openAiListPrices } from './openai-price-table.js';
import type { TokenPrices } from './token-prices.js';

/**
 * How the cost of an agent's runs is known: from prices (`pricing:` in agent.yaml, or the
 * built-in table), as the backend reports it (the Claude CLI prices its own runs), or not at
 * all, with the reason a report shows beside the `null`.
 */
export type ModelPricing =
  | { kind: 'prices'; prices: TokenPrices; source: string }
  | { kind: 'reported' }
  | { kind: 'unknown'; reason: string };

/** The token prices of a `pricing:` block (agent.yaml's, or optimize.proposer's). */
export function tokenPricesOf(pricing: NonNullable<AgentConfig['pricing']>): TokenPrices {
  return {
    input: pricing.input_per_million,
    output: pricing.output_per_million,
    ...(pricing.cached_input_per_million !== undefined
      ? { cachedInput: pricing.cached_input_per_million }
      : {}),
    ...(pricing.cache_write_per_million !== undefined ? { cacheWrite: pricing.cache_write_per_million } : {}),
  };
}

/** The pricing of the agent's model: `pricing:` first, then what the provider offers. */
export function modelPricing(config: AgentConfig): ModelPricing {
  if (config.pricing)
    return { kind: 'prices', prices: tokenPricesOf(config.pricing), source: 'agent.yaml pricing' };
  const { provider, name } = config.model;
  switch (provider) {
    case 'anthropic':
      return { kind: 'reported' };
    case 'ollama':
      return {
        kind: 'unknown',
        reason: `ollama runs ${name} on your own machine, so it has no per-token price; set pricing: in agent.yaml to count one`,
      };
    case 'openai':
    case 'azure_openai': {
      const prices = openAiListPrices(name);
      if (prices) return { kind: 'prices', prices, source: `price table ${OPENAI_PRICE_TABLE.version}` };
      return {
        kind: 'unknown',
        reason: `the price table (${OPENAI_PRICE_TABLE.version}) has no price for ${provider} model ${name}; set pricing: in agent.yaml`,
      };
    }
  }
}
