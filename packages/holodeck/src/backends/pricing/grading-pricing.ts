import { ANTHROPIC_PRICE_TABLE, anthropicListPrices } from './anthropic-price-table.js';
import {
  OPENAI_EMBEDDING_PRICE_TABLE,
  OPENAI_PRICE_TABLE,
  openAiEmbeddingPrices,
  openAiListPrices,
} from './openai-price-table.js';
import type { TokenPrices } from './token-prices.js';

/** A model HoloDeck calls itself while grading: the judge of judge metrics, or the `similar` metric's embeddings. */
export interface GradingModel {
  kind: 'judge' | 'embeddings';
  provider: string;
  model: string;
}

/** The prices of a grading model, or why there are none. */
export type GradingPricing =
  | { kind: 'prices'; prices: TokenPrices; source: string }
  | { kind: 'unknown'; reason: string };

/**
 * How a grading model's calls are priced: from the built-in price tables only. agent.yaml's
 * `pricing:` prices the agent's model as its backend bills it, so it never applies here, not even
 * when the judge is the agent's own model.
 */
export function gradingPricing({ kind, provider, model }: GradingModel): GradingPricing {
  const what = `${kind === 'judge' ? 'judge' : 'embedding'} model ${provider} ${model}`;
  if (provider === 'ollama')
    return {
      kind: 'unknown',
      reason: `ollama runs the ${what} on your own machine, so it has no per-token price`,
    };
  const table =
    kind === 'embeddings'
      ? provider === 'openai' || provider === 'azure_openai'
        ? {
            prices: openAiEmbeddingPrices(model),
            version: `openai embeddings ${OPENAI_EMBEDDING_PRICE_TABLE.version}`,
          }
        : undefined
      : provider === 'anthropic'
        ? { prices: anthropicListPrices(model), version: `anthropic ${ANTHROPIC_PRICE_TABLE.version}` }
        : provider === 'openai' || provider === 'azure_openai'
          ? { prices: openAiListPrices(model), version: `openai ${OPENAI_PRICE_TABLE.version}` }
          : undefined;
  if (table === undefined) return { kind: 'unknown', reason: `HoloDeck has no price table for the ${what}` };
  if (table.prices === undefined)
    return { kind: 'unknown', reason: `the price table (${table.version}) has no price for the ${what}` };
  return { kind: 'prices', prices: table.prices, source: `price table ${table.version}` };
}
