import { describe, expect, it } from 'vitest';
import {
  createContextualPrecisionMetric,
  weightedPrecision,
} from '../../../../src/evals/judge/contextual-precision-metric.js';
import { createContextualRecallMetric } from '../../../../src/evals/judge/contextual-recall-metric.js';
import { createContextualRelevancyMetric } from '../../../../src/evals/judge/contextual-relevancy-metric.js';
import { metricConfig, metricInput, onlyRequest, stubJudge } from './stub-judge.js';

const precision = createContextualPrecisionMetric(metricConfig({ type: 'contextual_precision' }));
const recall = createContextualRecallMetric(metricConfig({ type: 'contextual_recall' }));
const relevancy = createContextualRelevancyMetric(
  metricConfig({ type: 'contextual_relevancy', threshold: 0.9 }),
);
const context = ['Berlin is in Germany.', 'Paris is the capital of France.', 'France is in Europe.'];
const rag = metricInput({ context, groundTruth: 'Paris is the capital of France. It is in Europe.' });

const chunk = (relevant: boolean, reason = relevant ? 'useful' : 'unrelated') => ({ relevant, reason });

describe('weightedPrecision', () => {
  it('is the mean of precision@k over the relevant positions', () => {
    expect(weightedPrecision([true, true, false])).toBe(1);
    expect(weightedPrecision([false, true, true])).toBeCloseTo((1 / 2 + 2 / 3) / 2);
    expect(weightedPrecision([true, false, true])).toBeCloseTo((1 + 2 / 3) / 2);
    expect(weightedPrecision([false, false])).toBe(0);
  });
});

describe('contextual_precision metric', () => {
  it('scores the ranking of relevant chunks and names the irrelevant ones', async () => {
    const judge = stubJudge([{ chunks: [chunk(false, 'about Germany'), chunk(true), chunk(true)] }]);
    const outcome = await precision.evaluate(rag, { judge });
    expect(outcome.score).toBeCloseTo((1 / 2 + 2 / 3) / 2);
    expect(outcome.passed).toBe(true);
    expect(outcome.reason).toBe(
      '2 of 3 context chunks relevant to the expected answer (weighted by rank). Irrelevant: chunk 1 (about Germany).',
    );
    const { prompt, verdictSchema } = onlyRequest(judge);
    expect(prompt).toContain(
      '<expected_answer>\nParis is the capital of France. It is in Europe.\n</expected_answer>',
    );
    expect(prompt).toContain('For each of the 3 numbered context chunks');
    expect(verdictSchema).toMatchObject({ properties: { chunks: { minItems: 3, maxItems: 3 } } });
  });

  it('refuses a verdict with the wrong number of chunks', async () => {
    const judge = stubJudge([{ chunks: [chunk(true)] }]);
    const outcome = await precision.evaluate(rag, { judge });
    expect(outcome.passed).toBe(false);
    expect(outcome.error).toContain('verdict violates schema');
  });

  it('needs context and ground_truth, naming both fields when both are missing', async () => {
    const judge = stubJudge([]);
    const both = await precision.evaluate(metricInput(), { judge });
    expect(both.error).toBe(
      'contextual_precision needs context and ground_truth: add "context:" (the list of retrieved passages) ' +
        'and "ground_truth:" (the expected answer) to the test case',
    );
    const noTruth = await precision.evaluate(metricInput({ context, groundTruth: ' ' }), { judge });
    expect(noTruth.error).toBe(
      'contextual_precision needs ground_truth: add "ground_truth:" (the expected answer) to the test case',
    );
    expect(noTruth).toMatchObject({ score: 0, passed: false, threshold: 0.5 });
    expect(judge.requests).toHaveLength(0);
  });
});

describe('contextual_recall metric', () => {
  it('scores attributable sentences / sentences of the ground truth', async () => {
    const judge = stubJudge([
      {
        sentences: [
          { sentence: 'Paris is the capital of France.', attributable: true, reason: 'chunk 2' },
          { sentence: 'It is in Europe.', attributable: true, reason: 'chunk 3' },
        ],
      },
    ]);
    const outcome = await recall.evaluate(rag, { judge });
    expect(outcome).toMatchObject({ score: 1, passed: true });
    expect(outcome.reason).toBe('2 of 2 sentences of the expected answer found in the context.');
    expect(onlyRequest(judge).prompt).not.toContain('<agent_response>');
  });

  it('lists the sentences the context lacks', async () => {
    const judge = stubJudge([
      {
        sentences: [
          { sentence: 'Paris is the capital of France.', attributable: true, reason: 'chunk 2' },
          { sentence: 'It has 2 million people.', attributable: false, reason: 'no population given' },
        ],
      },
    ]);
    const outcome = await recall.evaluate(rag, { judge });
    expect(outcome.score).toBe(0.5);
    expect(outcome.reason).toContain('Not in the context: "It has 2 million people" (no population given).');
  });

  it('needs ground_truth', async () => {
    const outcome = await recall.evaluate(metricInput({ context }), { judge: stubJudge([]) });
    expect(outcome.error).toBe(
      'contextual_recall needs ground_truth: add "ground_truth:" (the expected answer) to the test case',
    );
  });
});

describe('contextual_relevancy metric', () => {
  it('scores relevant statements / statements of the context against its threshold', async () => {
    const judge = stubJudge([
      {
        statements: [
          { statement: 'Berlin is in Germany', relevant: false, reason: 'about Germany' },
          { statement: 'Paris is the capital of France', relevant: true, reason: 'answers it' },
          { statement: 'France is in Europe', relevant: true, reason: 'background' },
        ],
      },
    ]);
    const outcome = await relevancy.evaluate(rag, { judge });
    expect(outcome.score).toBeCloseTo(2 / 3);
    expect(outcome).toMatchObject({ threshold: 0.9, passed: false });
    expect(outcome.reason).toContain('Irrelevant: "Berlin is in Germany" (about Germany).');
  });

  it('scores 0 when the judge finds no statements, and needs context but not ground truth', async () => {
    const outcome = await relevancy.evaluate(metricInput({ context }), {
      judge: stubJudge([{ statements: [] }]),
    });
    expect(outcome).toMatchObject({ score: 0, passed: false });
    const missing = await relevancy.evaluate(metricInput(), { judge: stubJudge([]) });
    expect(missing.error).toContain('contextual_relevancy needs context');
  });

  it('needs a judge', async () => {
    const outcome = await relevancy.evaluate(rag, {});
    expect(outcome.error).toMatch(/^no judge model configured/);
  });
});
