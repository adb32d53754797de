import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_PRICE_TABLE,
  anthropicListPrices,
} from '../../../../src/backends/pricing/anthropic-price-table.js';
import { gradingPricing } from '../../../../src/backends/pricing/grading-pricing.js';
import {
  OPENAI_EMBEDDING_PRICE_TABLE,
  OPENAI_PRICE_TABLE,
} from '../../../../src/backends/pricing/openai-price-table.js';

describe("the judge's and the similar metric's prices", () => {
  it('prices a Claude model by its id, a snapshot date or -latest stripped; cache reads at 0.1×, writes at 1.25× input', () => {
    const sonnet = { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 };
    expect(anthropicListPrices('claude-sonnet-4-5')).toEqual(sonnet);
    expect(anthropicListPrices('claude-sonnet-4-5-20250929')).toEqual(sonnet);
    expect(anthropicListPrices('Claude-3-5-Haiku-Latest')).toEqual({
      input: 0.8,
      output: 4,
      cachedInput: 0.08,
      cacheWrite: 1,
    });
    expect(anthropicListPrices('claude-judge-test')).toBeUndefined();
  });

  it('takes each provider from its table, and says why when there is no price', () => {
    expect(gradingPricing({ kind: 'judge', provider: 'anthropic', model: 'claude-haiku-4-5' })).toEqual({
      kind: 'prices',
      prices: { input: 1, output: 5, cachedInput: 0.1, cacheWrite: 1.25 },
      source: `price table anthropic ${ANTHROPIC_PRICE_TABLE.version}`,
    });
    expect(gradingPricing({ kind: 'judge', provider: 'azure_openai', model: 'gpt-4o-mini' })).toMatchObject({
      kind: 'prices',
      prices: { input: 0.15, output: 0.6 },
      source: `price table openai ${OPENAI_PRICE_TABLE.version}`,
    });
    expect(
      gradingPricing({ kind: 'embeddings', provider: 'openai', model: 'text-embedding-3-small' }),
    ).toEqual({
      kind: 'prices',
      prices: { input: 0.02, output: 0 },
      source: `price table openai embeddings ${OPENAI_EMBEDDING_PRICE_TABLE.version}`,
    });
    expect(gradingPricing({ kind: 'judge', provider: 'anthropic', model: 'claude-judge-test' })).toEqual({
      kind: 'unknown',
      reason: `the price table (anthropic ${ANTHROPIC_PRICE_TABLE.version}) has no price for the judge model anthropic claude-judge-test`,
    });
    expect(gradingPricing({ kind: 'embeddings', provider: 'openai', model: 'gpt-4o' })).toEqual({
      kind: 'unknown',
      reason: `the price table (openai embeddings ${OPENAI_EMBEDDING_PRICE_TABLE.version}) has no price for the embedding model openai gpt-4o`,
    });
    expect(gradingPricing({ kind: 'judge', provider: 'ollama', model: 'llama3.2' })).toEqual({
      kind: 'unknown',
      reason: 'ollama runs the judge model ollama llama3.2 on your own machine, so it has no per-token price',
    });
  });
});
