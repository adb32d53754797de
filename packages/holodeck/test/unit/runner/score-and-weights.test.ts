import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { meetsThreshold, scoredOutcome } from '../../../src/evals/metric-outcome.js';
import { rougeScores } from '../../../src/evals/nlp/index.js';
import { createNlpMetric } from '../../../src/evals/nlp-metric.js';
import { loadAgent } from '../../../src/load-agent.js';
import { allDecidingPassed, weightedScore } from '../../../src/runner/attempt-outcome.js';
import { inspectSuite } from '../../../src/runner/prepare-suite.js';
import { type AgentSandbox, BASE, createSandbox, lines } from '../config/agent-sandbox.js';
import { metricInput } from '../evals/metric-input.js';

describe('a score equal to its threshold passes', () => {
  // 6 of 7 response words in order against an 8-word reference: 2·(6/7)(6/8)/((6/7)+(6/8)) is 0.8 exactly.
  const reference = 'the order shipped today with the fast courier';
  const response = 'the order shipped today with the parcel';

  it('rouge-L computes 0.7999999999999999 for that exact 0.8, and passes threshold 0.8', async () => {
    expect(rougeScores(reference, response).rougeL.fmeasure).toBe(0.7999999999999999);
    const metric = createNlpMetric({ type: 'rouge', variant: 'rougeL', threshold: 0.8, value: reference });
    const outcome = await metric.evaluate(metricInput({ response }), {});
    expect(outcome).toMatchObject({ passed: true, reason: 'rougeL 0.800 vs threshold 0.8' });
  });

  it('compares within 1e-9, no more', () => {
    expect(meetsThreshold(0.7999999999999999, 0.8)).toBe(true);
    expect(meetsThreshold(0.7999, 0.8)).toBe(false);
    expect(scoredOutcome({ type: 'bleu' }, 0.6 - 1e-12, 0.6, 'r').passed).toBe(true);
  });
});

describe('weight 0: reported, not deciding', () => {
  const failing = { name: 'tone', type: 'g-eval', score: 0.1, threshold: 0.5, passed: false, reason: 'rude' };
  const passing = { name: 'bleu', type: 'bleu', score: 0.9, threshold: 0.5, passed: true, reason: 'ok' };
  const metric = (weight?: number) => ({
    name: 'm',
    type: 'x',
    ...(weight === undefined ? {} : { weight }),
    evaluate: async () => passing,
  });

  it('a failing weight-0 metric neither fails the attempt nor lowers its score', () => {
    expect(allDecidingPassed([metric(0), metric()], [failing, passing])).toBe(true);
    expect(allDecidingPassed([metric(1), metric()], [failing, passing])).toBe(false);
    expect(weightedScore([metric(0), metric()], [failing, passing])).toBe(0.9);
  });

  let sandbox: AgentSandbox;
  beforeEach(async () => {
    sandbox = await createSandbox();
  });
  afterEach(() => sandbox.remove());

  it('a case whose every metric has weight 0 is a configuration error at its line', async () => {
    await sandbox.write(
      'agent.yaml',
      lines(
        ...BASE,
        'test_cases:',
        '  - name: undecided',
        '    input: hi',
        '    metrics:',
        '      - { type: contains, value: hi, weight: 0 }',
      ),
    );
    const agent = await loadAgent(sandbox.agentFile, { env: {}, homeDir: sandbox.home });
    const inspection = await inspectSuite(agent, { requireCases: true });
    expect(inspection.issues).toEqual([
      {
        file: sandbox.agentFile,
        line: 10,
        column: 5,
        path: 'test_cases[0].metrics',
        message: 'every metric of test case "undecided" has weight 0, so nothing decides whether it passes',
        hint: 'give at least one metric a weight above 0 (weight 0 = reported, not deciding)',
      },
    ]);
  });
});
