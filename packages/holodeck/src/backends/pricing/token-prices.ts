import type { TokenUsage } from '../contract/index.js';

/** A model's prices in US dollars per million tokens. */
export interface TokenPrices {
  /** Input (prompt) tokens not read from a prompt cache. */
  input: number;
  output: number;
  /** Input tokens read from the prompt cache; absent: the input price. */
  cachedInput?: number;
  /** Input tokens written to the prompt cache (Anthropic); absent: the input price. */
  cacheWrite?: number;
}

/**
 * How a backend's TokenUsage counts the prompt: `cache-included` when prompt_tokens holds every
 * input token, the cached ones too (OpenAI's Chat Completions: `prompt_tokens` with
 * `cached_tokens` inside it); `cache-apart` when the cache reads and writes are counted beside it
 * (Anthropic: `input_tokens`, `cache_read_input_tokens`, `cache_creation_input_tokens`).
 */
export type PromptCounting = 'cache-included' | 'cache-apart';

const MILLION = 1_000_000;

/** The cost in USD of `usage` at `prices`, rounded to 1e-10 (a sum of float products carries noise). */
export function costOfUsage(usage: TokenUsage, prices: TokenPrices, counting: PromptCounting): number {
  const cachedRead = usage.cache_read_tokens;
  const uncached =
    counting === 'cache-included' ? Math.max(0, usage.prompt_tokens - cachedRead) : usage.prompt_tokens;
  const cost =
    uncached * prices.input +
    cachedRead * (prices.cachedInput ?? prices.input) +
    usage.cache_creation_tokens * (prices.cacheWrite ?? prices.input) +
    usage.completion_tokens * prices.output;
  return Math.round((cost / MILLION) * 1e10) / 1e10;
}
