import { type FakeAnthropicServer, startFakeAnthropic, toolUse } from '@holodeck/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMetric } from '../../../../src/evals/create-metric.js';
import { createGEvalMetric } from '../../../../src/evals/judge/g-eval-metric.js';
import { fakeServerClient, judgeRequest } from './judge-client-fixtures.js';
import { metricConfig, metricInput, stubJudge } from './stub-judge.js';

let server: FakeAnthropicServer;
beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const verdict = toolUse('submit_verdict', { reason: 'fine', score: 4 });
const temperatures = () =>
  server.requests.map((request) => (request.body as { temperature?: number }).temperature);

describe('repeats of a judgement', () => {
  it('asks the first at temperature 0 and the repeats at the sampling temperature (default 1)', async () => {
    server.script(verdict, verdict, verdict);
    const judge = fakeServerClient(server);
    await judge.judge(judgeRequest);
    await judge.judge({ ...judgeRequest, sample: 1 });
    await judge.judge({ ...judgeRequest, sample: 2 });
    expect(temperatures()).toEqual([0, 1, 1]);
  });

  it('uses evaluations.model.temperature for the repeats when it is set', async () => {
    server.script(verdict, verdict);
    const judge = fakeServerClient(server, { samplingTemperature: 0.7 });
    await judge.judge(judgeRequest);
    await judge.judge({ ...judgeRequest, sample: 1 });
    expect(temperatures()).toEqual([0, 0.7]);
  });

  it('gives a repeated g-eval judgement (calibration) the next block of sample numbers, its steps derived once', async () => {
    const steps = { steps: ['Check it'] };
    const score = (value: number) => ({ reason: `score ${value}`, score: value });
    const judge = stubJudge([steps, score(4), score(4), score(5), score(3)]);
    const metric = createGEvalMetric(
      metricConfig({ type: 'g-eval', name: 'g', criteria: 'Correct?', samples: 2 }),
    );
    await metric.evaluate(metricInput(), { judge });
    await metric.evaluate(metricInput(), { judge, sample: 1 });
    expect(judge.requests.map((request) => request.sample)).toEqual([undefined, undefined, 1, 2, 3]);
  });

  it('passes the repeat number of a judgement on to the judge request of other judge metrics', async () => {
    const judge = stubJudge([{ reason: 'ok', pass: true, score: 1 }]);
    const metric = await createMetric(metricConfig({ type: 'rubric', value: 'Polite.' }), '.');
    await metric.evaluate(metricInput(), { judge, sample: 2 });
    expect(judge.requests[0]?.sample).toBe(2);
  });
});

describe('strict_mode', () => {
  it('makes the score 1 for a perfect answer and 0 otherwise, with threshold 1, as DeepEval does', async () => {
    const judge = stubJudge([
      { reason: 'all met', pass: true, score: 1 },
      { reason: 'mostly', pass: true, score: 0.9 },
    ]);
    const metric = await createMetric(
      metricConfig({ type: 'rubric', value: 'Polite.', threshold: 0.5, strict_mode: true }),
      '.',
    );
    const perfect = await metric.evaluate(metricInput(), { judge });
    const almost = await metric.evaluate(metricInput(), { judge });
    expect(perfect).toMatchObject({ score: 1, threshold: 1, passed: true });
    expect(perfect.reason).toBe('strict_mode: perfect. Rubric met: all met');
    expect(almost).toMatchObject({ score: 0, threshold: 1, passed: false });
    expect(almost.reason).toBe('strict_mode: 0.9 is not 1. Rubric met: mostly');
  });

  it('keeps an error an error, and leaves metrics without it as they were', async () => {
    const failing = stubJudge([new Error('judge down')]);
    const strict = await createMetric(metricConfig({ type: 'answer_relevancy', strict_mode: true }), '.');
    expect(await strict.evaluate(metricInput(), { judge: failing })).toMatchObject({
      score: 0,
      passed: false,
      threshold: 1,
      error: expect.stringContaining('judge down'),
    });
    const judge = stubJudge([{ reason: 'mostly', pass: true, score: 0.9 }]);
    const lenient = await createMetric(metricConfig({ type: 'rubric', value: 'Polite.' }), '.');
    expect(await lenient.evaluate(metricInput(), { judge })).toMatchObject({ score: 0.9, passed: true });
  });
});
