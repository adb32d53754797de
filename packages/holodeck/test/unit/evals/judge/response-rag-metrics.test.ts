import { describe, expect, it } from 'vitest';
import { MetricConfigSchema } from '../../../../src/config/index.js';
import { createAnswerRelevancyMetric } from '../../../../src/evals/judge/answer-relevancy-metric.js';
import { createFaithfulnessMetric } from '../../../../src/evals/judge/faithfulness-metric.js';
import { metricConfig, metricInput, onlyRequest, stubJudge } from './stub-judge.js';

const faithfulness = createFaithfulnessMetric(metricConfig({ type: 'faithfulness' }));
const relevancy = createAnswerRelevancyMetric(metricConfig({ type: 'answer_relevancy' }));
const context = ['Paris is the capital of France.', 'Paris has about 2.1 million inhabitants.'];

const strictFaithfulness = createFaithfulnessMetric(
  metricConfig({ type: 'faithfulness', penalize_ambiguous_claims: true }),
);
const mixedClaims = {
  claims: [
    { claim: 'Paris is the capital of France', verdict: 'supported', reason: 'chunk 1' },
    { claim: 'Paris has 9 million inhabitants', verdict: 'contradicted', reason: 'context says 2.1 million' },
    { claim: 'Paris is on the Seine', verdict: 'not_mentioned', reason: 'not in the context' },
  ],
};

describe('faithfulness metric', () => {
  it('counts only claims the context contradicts as unfaithful by default (deepeval)', async () => {
    const judge = stubJudge([mixedClaims]);
    const outcome = await faithfulness.evaluate(metricInput({ context }), { judge });
    expect(outcome).toMatchObject({
      name: 'faithfulness',
      type: 'faithfulness',
      threshold: 0.5,
      passed: true,
    });
    expect(outcome.score).toBeCloseTo(2 / 3);
    expect(outcome.reason).toBe(
      '2 of 3 claims not contradicted by the context. Contradicted: "Paris has 9 million inhabitants" ' +
        '(context says 2.1 million). 1 of them is not mentioned by the context (counted as faithful; ' +
        'penalize_ambiguous_claims: true counts them against).',
    );
    const { prompt, verdictSchema } = onlyRequest(judge);
    expect(prompt).toContain(
      '<context_chunk number="2">\nParis has about 2.1 million inhabitants.\n</context_chunk>',
    );
    expect(prompt).toContain('<agent_response>');
    expect(verdictSchema).toMatchObject({
      properties: {
        claims: {
          items: { properties: { verdict: { enum: ['supported', 'contradicted', 'not_mentioned'] } } },
        },
      },
    });
  });

  it('with penalize_ambiguous_claims, counts claims the context does not mention as unfaithful too', async () => {
    const outcome = await strictFaithfulness.evaluate(metricInput({ context }), {
      judge: stubJudge([mixedClaims]),
    });
    expect(outcome.score).toBeCloseTo(1 / 3);
    expect(outcome.passed).toBe(false);
    expect(outcome.reason).toBe(
      '1 of 3 claims supported by the context. Unsupported: "Paris has 9 million inhabitants" ' +
        '(context says 2.1 million); "Paris is on the Seine" (not in the context).',
    );
  });

  it('defaults penalize_ambiguous_claims to false and rejects a non-boolean', () => {
    expect(metricConfig({ type: 'faithfulness' })).toMatchObject({ penalize_ambiguous_claims: false });
    const result = MetricConfigSchema.safeParse({ type: 'faithfulness', penalize_ambiguous_claims: 'yes' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Invalid input: expected boolean, received string',
    ]);
  });

  it('scores 1 when the response makes no claims', async () => {
    const judge = stubJudge([{ claims: [] }]);
    const outcome = await faithfulness.evaluate(metricInput({ context, response: 'Hello!' }), { judge });
    expect(outcome).toMatchObject({
      score: 1,
      passed: true,
      reason: 'The response makes no claims.',
    });
  });

  it('lists at most 5 contradicted claims', async () => {
    const claims = Array.from({ length: 7 }, (_, index) => ({
      claim: `claim ${index}`,
      verdict: 'contradicted',
      reason: 'absent',
    }));
    const outcome = await faithfulness.evaluate(metricInput({ context }), { judge: stubJudge([{ claims }]) });
    expect(outcome.score).toBe(0);
    expect(outcome.reason).toMatch(/"claim 4" \(absent\); and 2 more\.$/);
  });

  it('needs context, and says which test-case field to add', async () => {
    const judge = stubJudge([]);
    for (const missing of [undefined, [], ['  ']]) {
      const outcome = await faithfulness.evaluate(metricInput({ context: missing }), { judge });
      expect(outcome).toMatchObject({ score: 0, passed: false });
      expect(outcome.error).toBe(
        'faithfulness needs context: add "context:" (the list of retrieved passages) to the test case',
      );
    }
    expect(judge.requests).toHaveLength(0);
  });

  it('needs a judge', async () => {
    const outcome = await faithfulness.evaluate(metricInput({ context }), {});
    expect(outcome.error).toContain('no judge model configured');
  });

  it('scores an empty response as a response without claims (1, as deepeval does), without asking the judge', async () => {
    for (const metric of [faithfulness, strictFaithfulness]) {
      const judge = stubJudge([]);
      const outcome = await metric.evaluate(metricInput({ context, response: '  ' }), { judge });
      expect(outcome).toEqual({
        name: 'faithfulness',
        type: 'faithfulness',
        score: 1,
        threshold: 0.5,
        passed: true,
        reason: 'The response makes no claims.',
      });
      expect(judge.requests).toHaveLength(0);
    }
  });
});

describe('answer_relevancy metric', () => {
  it('scores relevant statements / statements with a custom name and threshold', async () => {
    const judge = stubJudge([
      {
        statements: [
          { statement: 'The capital is Paris', relevant: true, reason: 'answers it' },
          { statement: 'I like cheese', relevant: false, reason: 'off-topic' },
        ],
      },
    ]);
    const metric = createAnswerRelevancyMetric(
      metricConfig({ type: 'answer_relevancy', name: 'on-topic', threshold: 0.5 }),
    );
    const outcome = await metric.evaluate(metricInput(), { judge });
    expect(outcome).toEqual({
      name: 'on-topic',
      type: 'answer_relevancy',
      score: 0.5,
      threshold: 0.5,
      passed: true,
      reason: '1 of 2 statements relevant to the input. Irrelevant: "I like cheese" (off-topic).',
    });
    expect(onlyRequest(judge).prompt).toContain(
      '<user_input>\nWhat is the capital of France?\n</user_input>',
    );
  });

  it('scores an empty response 0 without asking the judge', async () => {
    const judge = stubJudge([]);
    const outcome = await relevancy.evaluate(metricInput({ response: ' ' }), { judge });
    expect(outcome).toMatchObject({
      score: 0,
      passed: false,
      reason: 'The response is empty: it addresses nothing.',
    });
    expect(judge.requests).toHaveLength(0);
  });

  it('does not need context or ground truth', async () => {
    const judge = stubJudge([{ statements: [{ statement: 'Paris', relevant: true, reason: 'answers' }] }]);
    const outcome = await relevancy.evaluate(metricInput(), { judge });
    expect(outcome).toMatchObject({ score: 1, passed: true });
    expect(outcome.error).toBeUndefined();
  });

  it('rejects config keys other than type, threshold, name and weight', () => {
    expect(MetricConfigSchema.safeParse({ type: 'answer_relevancy', weight: 2 }).success).toBe(true);
    expect(MetricConfigSchema.safeParse({ type: 'answer_relevancy', model: 'x' }).success).toBe(false);
  });
});
