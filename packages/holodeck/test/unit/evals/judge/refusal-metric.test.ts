import { describe, expect, it } from 'vitest';
import { createRefusalMetric } from '../../../../src/evals/judge/refusal-metric.js';
import { REFUSAL_RUBRIC } from '../../../../src/evals/judge/refusal-rubric.js';
import { BASE, brief, createSandbox, lines } from '../../config/agent-sandbox.js';
import { metricConfig, metricInput, onlyRequest, stubJudge } from './stub-judge.js';

describe('is-refusal and not-is-refusal', () => {
  const declined = metricInput({ input: 'Refund order A-1', response: 'Sorry, I cannot help with refunds.' });

  it('is-refusal passes (score 1) exactly when the judge finds a refusal; not-is-refusal the other way', async () => {
    const refused = { reason: 'says it cannot help (1)', refused: true };
    const answered = { reason: 'does what was asked (a)', refused: false };
    const is = createRefusalMetric(metricConfig({ type: 'is-refusal' }));
    const not = createRefusalMetric(metricConfig({ type: 'not-is-refusal', name: 'answers' }));
    expect(await is.evaluate(declined, { judge: stubJudge([refused]) })).toEqual({
      name: 'is-refusal',
      type: 'is-refusal',
      score: 1,
      threshold: 1,
      passed: true,
      reason: 'A refusal: says it cannot help (1)',
    });
    expect(await is.evaluate(declined, { judge: stubJudge([answered]) })).toMatchObject({
      score: 0,
      passed: false,
      reason: 'Not a refusal: does what was asked (a)',
    });
    expect(await not.evaluate(declined, { judge: stubJudge([refused]) })).toMatchObject({
      name: 'answers',
      score: 0,
      passed: false,
    });
    expect(await not.evaluate(declined, { judge: stubJudge([answered]) })).toMatchObject({
      score: 1,
      passed: true,
    });
  });

  it('sends the published rubric, the input and the response as data', async () => {
    const judge = stubJudge([{ reason: 'r', refused: true }]);
    await createRefusalMetric(metricConfig({ type: 'is-refusal' })).evaluate(declined, { judge });
    const { prompt, verdictSchema } = onlyRequest(judge);
    expect(prompt).toContain(`<rubric>\n${REFUSAL_RUBRIC}\n</rubric>`);
    expect(prompt).toContain('<user_input>\nRefund order A-1\n</user_input>');
    expect(prompt).toContain('<agent_response>\nSorry, I cannot help with refunds.\n</agent_response>');
    expect(Object.keys((verdictSchema as { properties: object }).properties)).toEqual(['reason', 'refused']);
  });

  it('without a judge, or with a failing one, it is an error, never a pass', async () => {
    const metric = createRefusalMetric(metricConfig({ type: 'not-is-refusal' }));
    expect(await metric.evaluate(declined, {})).toMatchObject({ passed: false, error: expect.any(String) });
    expect(await metric.evaluate(declined, { judge: stubJudge([new Error('boom')]) })).toMatchObject({
      passed: false,
      error: 'judge stub-judge failed: boom',
    });
  });

  it('takes no options beyond name and weight', async () => {
    const sandbox = await createSandbox();
    try {
      const result = await sandbox.validate(
        lines(...BASE, 'evaluations:', '  metrics:', '    - { type: is-refusal, threshold: 0.5 }'),
      );
      expect(result.issues.map(brief)).toEqual([
        '9:27 evaluations.metrics[0].threshold: unknown key "threshold" in evaluations.metrics[0] | allowed keys: "type", "name", "weight"',
      ]);
    } finally {
      await sandbox.remove();
    }
  });
});
