import type { TokenPrices } from './token-prices.js';

/**
 * OpenAI's list prices (standard tier, USD per million tokens: input, cached input, output) of the
 * models agents run on, as OpenAI published them. Azure OpenAI's global standard deployments are
 * billed at the same prices; data-zone and regional deployments, the Batch API, priority and flex
 * tiers are not: set `pricing:` in agent.yaml for those (and for any price that changed since).
 * Bump `version` with every edit.
 */
export const OPENAI_PRICE_TABLE = {
  version: '2025-08-07',
  source: 'https://platform.openai.com/docs/pricing',
  prices: {
    'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
    'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
    'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
    'gpt-5-chat-latest': { input: 1.25, cachedInput: 0.125, output: 10 },
    'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
    'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
    'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
    'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
    'gpt-4o-2024-05-13': { input: 5, output: 15 },
    'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
    o1: { input: 15, cachedInput: 7.5, output: 60 },
    'o1-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
    o3: { input: 2, cachedInput: 0.5, output: 8 },
    'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
    'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
    'gpt-4-turbo': { input: 10, output: 30 },
    'gpt-4': { input: 30, output: 60 },
    'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  } satisfies Record<string, TokenPrices>,
} as const;

const DATED = /-\d{4}-\d{2}-\d{2}$/;

/**
 * The listed prices of an OpenAI model: its exact name, else the name without a date suffix
 * (`gpt-4o-2024-08-06` is priced as `gpt-4o`, except a snapshot listed on its own). Undefined for
 * a model the table does not list.
 */
export function openAiListPrices(model: string): TokenPrices | undefined {
  const prices: Record<string, TokenPrices> = OPENAI_PRICE_TABLE.prices;
  const name = model.trim().toLowerCase();
  return prices[name] ?? prices[name.replace(DATED, '')];
}

/**
 * OpenAI's list prices of its embedding models (USD per million input tokens; no output), for the
 * requests of the `similar` metric. Azure OpenAI's global standard deployments are billed the same.
 * Bump `version` with every edit.
 */
export const OPENAI_EMBEDDING_PRICE_TABLE = {
  version: '2025-08-07',
  source: 'https://platform.openai.com/docs/pricing',
  prices: {
    'text-embedding-3-small': { input: 0.02, output: 0 },
    'text-embedding-3-large': { input: 0.13, output: 0 },
    'text-embedding-ada-002': { input: 0.1, output: 0 },
  } satisfies Record<string, TokenPrices>,
} as const;

/** The listed price of an OpenAI embedding model (exact name, lower-cased); undefined when not listed. */
export function openAiEmbeddingPrices(model: string): TokenPrices | undefined {
  const prices: Record<string, TokenPrices> = OPENAI_EMBEDDING_PRICE_TABLE.prices;
  return prices[model.trim().toLowerCase()];
}
