import { describe, expect, it } from 'vitest';
import { type ExecutionResult, emptyTokenUsage } from '../../../src/backends/contract/index.js';
import type { Metric, MetricContext } from '../../../src/evals/metric.js';
import type { AttemptRunner } from '../../../src/runner/attempt-runner.js';
import type { PreparedCase } from '../../../src/runner/prepare-suite.js';
import { runAttempt } from '../../../src/runner/run-attempt.js';

const answer: ExecutionResult = {
  response: 'Paris',
  tool_calls: [],
  tool_results: [],
  token_usage: emptyTokenUsage(),
  num_turns: 1,
  is_error: false,
  cost_usd: 0,
  duration_ms: 1,
};

const runner: AttemptRunner = {
  runSingle: async () => answer,
  openConversation: async () => ({ send: async () => answer, release: async () => {} }),
  close: async () => {},
};

/** A metric that records the context it is given and waits until its signal aborts. */
function waitingMetric(seen: MetricContext[]): Metric {
  return {
    name: 'waits',
    type: 'code',
    evaluate: (_input, context) => {
      seen.push(context);
      return new Promise((_resolve, reject) => {
        context.signal?.addEventListener('abort', () => reject(context.signal?.reason), { once: true });
      });
    },
  };
}

function preparedCase(metric: Metric, turns = false): PreparedCase {
  const config = turns
    ? { name: 'case', turns: [{ input: 'Capital of France?' }] }
    : { name: 'case', input: 'Capital of France?' };
  return {
    index: 0,
    config: config as PreparedCase['config'],
    metrics: [metric],
    turnMetrics: [],
    source: { file: 'agent.yaml', path: ['test_cases', 0] },
  };
}

describe("metrics receive the attempt's signal", () => {
  for (const turns of [false, true]) {
    it(`aborts a running metric when the case times out (${turns ? 'conversation' : 'single run'})`, async () => {
      const seen: MetricContext[] = [];
      const judge = { model: 'j', judge: async () => ({}) };
      const attempt = await runAttempt(preparedCase(waitingMetric(seen), turns), 1, {
        runner,
        metricContext: { judge },
        timeoutMs: 50,
      });
      expect(attempt.passed).toBe(false);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.judge).toBe(judge);
      expect(seen[0]?.signal?.aborted).toBe(true);
      expect(String(seen[0]?.signal?.reason)).toBe('Error: timed out after 0.05 s');
    });
  }
});
