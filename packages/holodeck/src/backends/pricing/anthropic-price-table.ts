import type { TokenPrices } from './token-prices.js';

/**
 * Anthropic's list prices (USD per million tokens: input, output, prompt-cache reads at 0.1× input,
 * 5-minute cache writes at 1.25× input) of the Claude models, as Anthropic published them. They price
 * the calls HoloDeck makes itself (the judge of judge metrics); the agent's own runs on the Claude
 * Agent SDK are priced by the Claude CLI. The long-context rate (prompts over 200K tokens), the
 * Batch API and 1-hour cache writes are not modelled. Bump `version` with every edit.
 */
export const ANTHROPIC_PRICE_TABLE = {
  version: '2026-02-17',
  source: 'https://docs.anthropic.com/en/docs/about-claude/pricing',
  prices: {
    'claude-opus-4-5': claude(5, 25),
    'claude-opus-4-1': claude(15, 75),
    'claude-opus-4-0': claude(15, 75),
    'claude-opus-4': claude(15, 75),
    'claude-sonnet-4-6': claude(3, 15),
    'claude-sonnet-4-5': claude(3, 15),
    'claude-sonnet-4-0': claude(3, 15),
    'claude-sonnet-4': claude(3, 15),
    'claude-3-7-sonnet': claude(3, 15),
    'claude-haiku-4-5': claude(1, 5),
    'claude-3-5-haiku': claude(0.8, 4),
    'claude-3-haiku': claude(0.25, 1.25),
  } satisfies Record<string, TokenPrices>,
} as const;

/** A Claude model's prices from its input and output price; cache reads and writes follow from input. */
function claude(input: number, output: number): TokenPrices {
  return { input, output, cachedInput: round(input * 0.1), cacheWrite: round(input * 1.25) };
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** A snapshot date (`-20250929`) or the `-latest` alias at the end of a model id. */
const SNAPSHOT = /-(\d{8}|latest)$/;

/**
 * The listed prices of a Claude model: its exact id, else the id without a snapshot date or
 * `-latest` (`claude-sonnet-4-5-20250929` is priced as `claude-sonnet-4-5`). Undefined for a model
 * the table does not list.
 */
export function anthropicListPrices(model: string): TokenPrices | undefined {
  const prices: Record<string, TokenPrices> = ANTHROPIC_PRICE_TABLE.prices;
  const name = model.trim().toLowerCase();
  return prices[name] ?? prices[name.replace(SNAPSHOT, '')];
}
