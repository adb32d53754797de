import { describe, expect, it } from 'vitest';
import type { TokenUsage } from '../../../../src/backends/contract/index.js';
import { modelPricing } from '../../../../src/backends/pricing/model-pricing.js';
import { OPENAI_PRICE_TABLE, openAiListPrices } from '../../../../src/backends/pricing/openai-price-table.js';
import { costOfUsage } from '../../../../src/backends/pricing/token-prices.js';
import type { AgentConfig } from '../../../../src/config/index.js';

function usage(prompt: number, completion: number, cacheRead = 0, cacheWrite = 0): TokenUsage {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    cache_read_tokens: cacheRead,
    cache_creation_tokens: cacheWrite,
  };
}

function config(model: AgentConfig['model'], pricing?: AgentConfig['pricing']): AgentConfig {
  return {
    name: 'priced',
    model,
    instructions: { inline: 'hi' },
    ...(pricing ? { pricing } : {}),
  } as AgentConfig;
}

describe('token prices', () => {
  it('OpenAI counts cached tokens inside prompt_tokens: they are billed at the cached price', () => {
    // gpt-4o: $2.50 in, $1.25 cached in, $10 out per million.
    const prices = { input: 2.5, cachedInput: 1.25, output: 10 };
    expect(costOfUsage(usage(1_000_000, 0), prices, 'cache-included')).toBe(2.5);
    expect(costOfUsage(usage(1_000_000, 100_000, 400_000), prices, 'cache-included')).toBeCloseTo(
      0.6 * 2.5 + 0.4 * 1.25 + 0.1 * 10,
      10,
    );
  });

  it('Anthropic counts cache reads and writes beside input_tokens', () => {
    // Claude Sonnet: $3 in, $0.30 cache read, $3.75 cache write, $15 out per million.
    const prices = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };
    expect(costOfUsage(usage(1_000, 100, 10_000, 2_000), prices, 'cache-apart')).toBeCloseTo(
      (1_000 * 3 + 10_000 * 0.3 + 2_000 * 3.75 + 100 * 15) / 1e6,
      12,
    );
  });

  it('a cache price left out is the input price', () => {
    expect(costOfUsage(usage(1_000_000, 0, 500_000, 0), { input: 1, output: 2 }, 'cache-included')).toBe(1);
  });
});

describe('the OpenAI price table', () => {
  it('is dated and names its source', () => {
    expect(OPENAI_PRICE_TABLE.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(OPENAI_PRICE_TABLE.source).toBe('https://platform.openai.com/docs/pricing');
  });

  it('prices a dated snapshot as its model, unless the snapshot is listed apart', () => {
    expect(openAiListPrices('gpt-4o-2024-08-06')).toEqual(openAiListPrices('gpt-4o'));
    expect(openAiListPrices('gpt-4o-2024-05-13')).toEqual({ input: 5, output: 15 });
    expect(openAiListPrices('GPT-4o-mini')).toEqual({ input: 0.15, cachedInput: 0.075, output: 0.6 });
    expect(openAiListPrices('my-finetune')).toBeUndefined();
  });
});

describe('the pricing of an agent', () => {
  it('pricing: in agent.yaml comes first, on every provider', () => {
    const pricing = { input_per_million: 1, output_per_million: 2, cached_input_per_million: 0.5 };
    for (const provider of ['anthropic', 'openai', 'ollama'] as const)
      expect(modelPricing(config({ provider, name: 'any' }, pricing))).toEqual({
        kind: 'prices',
        prices: { input: 1, output: 2, cachedInput: 0.5 },
        source: 'agent.yaml pricing',
      });
  });

  it('openai and azure_openai use the table; the Claude CLI reports its own cost', () => {
    expect(modelPricing(config({ provider: 'openai', name: 'gpt-4.1-mini' }))).toMatchObject({
      kind: 'prices',
      prices: { input: 0.4, cachedInput: 0.1, output: 1.6 },
    });
    expect(
      modelPricing(
        config({ provider: 'azure_openai', name: 'gpt-4o', endpoint: 'https://x.openai.azure.com' }),
      ),
    ).toMatchObject({ kind: 'prices', prices: { input: 2.5 } });
    expect(modelPricing(config({ provider: 'anthropic', name: 'claude-sonnet-4-5' }))).toEqual({
      kind: 'reported',
    });
  });

  it('ollama and unknown models have no cost, with the reason and what to do', () => {
    expect(modelPricing(config({ provider: 'ollama', name: 'llama3.2' }))).toEqual({
      kind: 'unknown',
      reason:
        'ollama runs llama3.2 on your own machine, so it has no per-token price; set pricing: in agent.yaml to count one',
    });
    expect(modelPricing(config({ provider: 'openai', name: 'my-finetune' }))).toEqual({
      kind: 'unknown',
      reason: `the price table (${OPENAI_PRICE_TABLE.version}) has no price for openai model my-finetune; set pricing: in agent.yaml`,
    });
  });
});
