import { describe, expect, it } from 'vitest';
import { MetricConfigSchema } from '../../../src/config/index.js';
import { createBudgetMetric } from '../../../src/evals/deterministic/budget-metrics.js';
import { createJsonMetric } from '../../../src/evals/deterministic/json-metrics.js';
import { createTextMatchMetric } from '../../../src/evals/deterministic/text-match-metric.js';
import { metricInput } from './metric-input.js';

async function textMatch(config: unknown, response: string) {
  const parsed = MetricConfigSchema.parse(config);
  if (!('value' in parsed) || parsed.type.includes('json')) throw new Error('not a text match');
  return createTextMatchMetric(parsed as Parameters<typeof createTextMatchMetric>[0]).evaluate(
    metricInput({ response }),
    {},
  );
}

describe('text matches', () => {
  it('contains / icontains with any and all', async () => {
    expect(await textMatch({ type: 'contains', value: 'refund' }, 'Your refund is on its way')).toMatchObject(
      {
        passed: true,
        score: 1,
        reason: 'the response contains "refund"',
      },
    );
    expect((await textMatch({ type: 'contains', value: 'Refund' }, 'your refund')).passed).toBe(false);
    expect((await textMatch({ type: 'icontains', value: 'Refund' }, 'your refund')).passed).toBe(true);
    expect(await textMatch({ type: 'contains-all', value: ['a', 'zz'] }, 'a b')).toMatchObject({
      passed: false,
      reason: 'the response lacks "zz"',
    });
    expect((await textMatch({ type: 'contains', value: ['x', 'b'], mode: 'any' }, 'a b')).passed).toBe(true);
    expect((await textMatch({ type: 'icontains', value: ['A', 'B'], mode: 'all' }, 'a b')).passed).toBe(true);
  });

  it('not- negates', async () => {
    expect(await textMatch({ type: 'not-contains', value: 'sorry' }, 'I am sorry')).toMatchObject({
      passed: false,
      score: 0,
    });
    expect((await textMatch({ type: 'not-icontains', value: 'SORRY' }, 'fine')).passed).toBe(true);
  });

  it('equals trims, optionally ignoring case; regex takes flags', async () => {
    expect((await textMatch({ type: 'equals', value: 'Paris' }, ' Paris\n')).passed).toBe(true);
    expect((await textMatch({ type: 'equals', value: 'paris' }, 'Paris')).passed).toBe(false);
    expect((await textMatch({ type: 'equals', value: 'paris', ignore_case: true }, 'Paris')).passed).toBe(
      true,
    );
    expect(
      (await textMatch({ type: 'regex', value: '^order a-\\d+', flags: 'i' }, 'Order A-12 shipped')).passed,
    ).toBe(true);
    expect(await textMatch({ type: 'not-regex', value: '\\d' }, 'no digits')).toMatchObject({ passed: true });
  });
});

describe('JSON checks', () => {
  const schema = { type: 'object', required: ['total'], properties: { total: { type: 'number' } } };

  it('is-json and json-schema on the response', async () => {
    const isJson = createJsonMetric({ type: 'is-json' });
    expect((await isJson.evaluate(metricInput({ response: '{"a":1}' }), {})).passed).toBe(true);
    expect((await isJson.evaluate(metricInput({ response: 'not json' }), {})).reason).toMatch(
      /^the response is not JSON/,
    );
    const matches = createJsonMetric({ type: 'json-schema', value: schema });
    expect((await matches.evaluate(metricInput({ response: '{"total": 3}' }), {})).passed).toBe(true);
    expect((await matches.evaluate(metricInput({ response: '{"total": "3"}' }), {})).reason).toBe(
      'the response does not match the JSON Schema: /total must be number',
    );
  });

  it('prefers structured output over the response text', async () => {
    const matches = createJsonMetric({ type: 'json-schema', value: schema });
    const outcome = await matches.evaluate(
      metricInput({ response: 'prose', structuredOutput: { total: 1 } }),
      {},
    );
    expect(outcome.passed).toBe(true);
    const negated = createJsonMetric({ type: 'not-is-json' });
    expect((await negated.evaluate(metricInput({ response: 'prose' }), {})).passed).toBe(true);
  });
});

describe('budgets', () => {
  it('latency, cost and turns pass within the threshold', async () => {
    const input = metricInput({ durationMs: 1500, costUsd: 0.02, numTurns: 3 });
    expect(await createBudgetMetric({ type: 'latency', threshold: 2000 }).evaluate(input, {})).toMatchObject({
      passed: true,
      reason: '1500 ms ≤ 2000 ms',
    });
    expect(await createBudgetMetric({ type: 'cost', threshold: 0.01 }).evaluate(input, {})).toMatchObject({
      passed: false,
      reason: '$0.0200 > $0.0100',
    });
    expect((await createBudgetMetric({ type: 'turns', threshold: 3 }).evaluate(input, {})).passed).toBe(true);
  });

  it('an unknown cost is an error with its reason, never a pass', async () => {
    const outcome = await createBudgetMetric({ type: 'cost', threshold: 1 }).evaluate(
      metricInput({ costUsd: null }),
      {},
    );
    const message =
      'the cost of this run is unknown (its backend could not know it), so a cost budget cannot be checked; set pricing: in agent.yaml, or remove the cost metric';
    expect(outcome).toEqual({
      name: 'cost',
      type: 'cost',
      score: 0,
      passed: false,
      reason: message,
      error: message,
    });
    const explained = await createBudgetMetric({ type: 'cost', threshold: 1 }).evaluate(
      metricInput({
        costUsd: null,
        costUnknownReason: 'the run stopped before the Claude CLI reported its cost',
      }),
      {},
    );
    expect(explained.error).toBe(
      'the cost of this run is unknown (the run stopped before the Claude CLI reported its cost), so a cost budget cannot be checked; set pricing: in agent.yaml, or remove the cost metric',
    );
  });
});
