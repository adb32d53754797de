import { describe, expect, it } from 'vitest';
import { type ExecutionResult, emptyTokenUsage } from '../../../../src/backends/contract/index.js';
import { createFaithfulnessMetric } from '../../../../src/evals/judge/faithfulness-metric.js';
import type { Metric, MetricInput } from '../../../../src/evals/metric.js';
import type { AttemptRunner } from '../../../../src/runner/attempt-runner.js';
import type { PreparedCase } from '../../../../src/runner/prepare-suite.js';
import { runAttempt } from '../../../../src/runner/run-attempt.js';
import { metricConfig, stubJudge } from '../../evals/judge/stub-judge.js';

/** A run whose model called handbook_search once, with these results (or none). */
function answer(response: string, results?: string): ExecutionResult {
  return {
    response,
    tool_calls: results
      ? [{ name: 'mcp__holodeck_tools__handbook_search', call_id: response, arguments: { query: response } }]
      : [],
    tool_results: results ? [{ call_id: response, result: results, is_error: false }] : [],
    token_usage: emptyTokenUsage(),
    num_turns: 1,
    is_error: false,
    cost_usd: 0,
    duration_ms: 1,
  };
}

const refunds = '[1] source: policies.md | chunk: policies.md#2 | score: 0.0300\nRefunds take 30 days.';
const shipping = '[1] source: policies.md | chunk: policies.md#3 | score: 0.0200\nShipping takes 5 days.';

/** A metric that records the context it was given and passes. */
function recordingMetric(seen: (string[] | undefined)[]): Metric {
  return {
    name: 'context-seen',
    type: 'faithfulness',
    evaluate: async (input: MetricInput) => {
      seen.push(input.context);
      return { name: 'context-seen', type: 'faithfulness', score: 1, passed: true, reason: 'ok' };
    },
  };
}

function preparedCase(config: Record<string, unknown>, metrics: Metric[], turnMetrics: Metric[][] = []) {
  return {
    index: 0,
    config: { name: 'case', ...config } as PreparedCase['config'],
    metrics,
    turnMetrics,
    source: { file: 'agent.yaml', path: ['test_cases', 0] },
  } satisfies PreparedCase;
}

function runner(turns: ExecutionResult[]): AttemptRunner {
  let next = 0;
  return {
    runSingle: async () => turns[0] ?? answer(''),
    openConversation: async () => ({
      send: async () => turns[next++] ?? answer(''),
      release: async () => {},
    }),
    close: async () => {},
  };
}

describe('retrieval context for RAG metrics', () => {
  it('a single-turn case without context is graded on what its searches returned', async () => {
    const seen: (string[] | undefined)[] = [];
    await runAttempt(preparedCase({ input: 'refunds?' }, [recordingMetric(seen)]), 1, {
      runner: runner([answer('30 days', refunds)]),
      metricContext: {},
      timeoutMs: 5_000,
    });
    // The passage text; its citation line goes to the judge apart (contextBlock's source attribute).
    expect(seen).toEqual([['Refunds take 30 days.']]);
  });

  it('in a conversation, each turn sees what the searches of that turn and the turns before returned', async () => {
    const seen: (string[] | undefined)[] = [];
    const perTurn = [[recordingMetric(seen)], [recordingMetric(seen)], [recordingMetric(seen)]];
    const caseSeen: (string[] | undefined)[] = [];
    const attempt = await runAttempt(
      preparedCase(
        { turns: [{ input: 'hi' }, { input: 'refunds?' }, { input: 'and shipping?' }] },
        [recordingMetric(caseSeen)],
        perTurn,
      ),
      1,
      {
        runner: runner([
          answer('hello'),
          answer('30 days', refunds),
          answer('5 days', `${shipping}\n\n${refunds}`),
        ]),
        metricContext: {},
        timeoutMs: 5_000,
      },
    );
    expect(attempt.passed).toBe(true);
    expect(seen).toEqual([
      undefined,
      ['Refunds take 30 days.'],
      ['Refunds take 30 days.', 'Shipping takes 5 days.'],
    ]);
    // The case's own metrics grade the final answer with everything retrieved in the conversation.
    expect(caseSeen).toEqual([['Refunds take 30 days.', 'Shipping takes 5 days.']]);
  });

  it('a context the case or turn gives wins over what was retrieved', async () => {
    const seen: (string[] | undefined)[] = [];
    await runAttempt(
      preparedCase(
        { context: ['From the case.'], turns: [{ input: 'a', context: ['From the turn.'] }, { input: 'b' }] },
        [],
        [[recordingMetric(seen)], [recordingMetric(seen)]],
      ),
      1,
      { runner: runner([answer('x', refunds), answer('y', shipping)]), metricContext: {}, timeoutMs: 5_000 },
    );
    expect(seen).toEqual([['From the turn.'], ['From the case.']]);
  });

  it('a case whose searches found nothing fails its RAG metrics saying so, not asking for context', async () => {
    const empty: ExecutionResult = {
      ...answer('I found nothing about refunds.'),
      tool_calls: [
        { name: 'mcp__holodeck_tools__handbook_search', call_id: 'a', arguments: { query: 'refunds' } },
        { name: 'mcp__holodeck_tools__handbook_search', call_id: 'b', arguments: { query: 'refund policy' } },
      ],
      tool_results: [
        { call_id: 'a', result: 'No results found.', is_error: false },
        { call_id: 'b', result: 'No results found.', is_error: false },
      ],
    };
    const judge = stubJudge([]);
    const attempt = await runAttempt(
      preparedCase({ input: 'refunds?' }, [createFaithfulnessMetric(metricConfig({ type: 'faithfulness' }))]),
      1,
      { runner: runner([empty]), metricContext: { judge }, timeoutMs: 5_000 },
    );
    expect(attempt.passed).toBe(false);
    expect(attempt.metrics).toEqual([
      {
        name: 'faithfulness',
        type: 'faithfulness',
        score: 0,
        threshold: 0.5,
        passed: false,
        reason: "The agent's searches (handbook_search ×2) returned no passages; nothing to judge against.",
      },
    ]);
    expect(judge.requests).toHaveLength(0);
  });
});
