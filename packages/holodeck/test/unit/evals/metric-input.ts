import type { MetricInput } from '../../../src/evals/metric.js';

/** A MetricInput with neutral defaults, overridden per test. */
export function metricInput(overrides: Partial<MetricInput> = {}): MetricInput {
  return {
    input: 'question',
    response: 'answer',
    toolCalls: [],
    toolResults: [],
    durationMs: 1000,
    costUsd: 0.01,
    numTurns: 1,
    tokenUsage: {
      prompt_tokens: 1,
      completion_tokens: 1,
      total_tokens: 2,
      cache_read_tokens: 0,
      cache_creation_tokens: 0,
    },
    ...overrides,
  };
}
