import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cosineSimilarity, createSimilarMetric } from '../../../src/evals/embedding/similar-metric.js';
import { loadAgent } from '../../../src/load-agent.js';
import { inspectSuite } from '../../../src/runner/prepare-suite.js';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from '../config/agent-sandbox.js';
import { metricConfig } from './judge/stub-judge.js';
import { metricInput } from './metric-input.js';

const vector = (...values: number[]) => Float32Array.from(values);

describe('similar', () => {
  it('scores the best cosine over the references, computed by hand', async () => {
    // response (1, 0); references (1, 1) → cos 1/√2 ≈ 0.7071, and (0, 1) → 0.
    const vectors: Record<string, Float32Array> = {
      answer: vector(1, 0),
      near: vector(1, 1),
      far: vector(0, 1),
    };
    const seen: string[][] = [];
    const embed = async (texts: readonly string[]) => {
      seen.push([...texts]);
      return texts.map((text) => vectors[text] ?? vector(0, 0));
    };
    const metric = createSimilarMetric(
      metricConfig({ type: 'similar', value: ['far', 'near'], threshold: 0.7 }),
    );
    const outcome = await metric.evaluate(metricInput({ response: 'answer' }), { embed });
    expect(outcome).toMatchObject({ passed: true, threshold: 0.7 });
    expect(outcome.score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(outcome.reason).toBe(
      'cosine similarity 0.707 to the reference (closest: reference 2 of 2) vs threshold 0.7',
    );
    expect(seen).toEqual([['answer', 'far', 'near']]);
    expect(cosineSimilarity(vector(0, 0), vector(1, 0))).toBe(0);
  });

  it("passes the attempt's onGradingCall on to embed, so its embeddings requests are counted", async () => {
    const metric = createSimilarMetric(metricConfig({ type: 'similar', value: 'reference' }));
    const seen: unknown[] = [];
    const onGradingCall = () => {};
    const embed = async (
      texts: readonly string[],
      _provider?: unknown,
      _signal?: AbortSignal,
      onCall?: unknown,
    ) => {
      seen.push(onCall);
      return texts.map(() => vector(1, 0));
    };
    await metric.evaluate(metricInput({ response: 'answer' }), { embed, onGradingCall });
    expect(seen).toEqual([onGradingCall]);
  });

  it('uses ground_truth by default; an empty answer scores 0; no reference or no embeddings is an error', async () => {
    const metric = createSimilarMetric(metricConfig({ type: 'similar' }));
    const embed = async (texts: readonly string[]) => texts.map(() => vector(1, 0));
    expect(await metric.evaluate(metricInput({ response: 'a', groundTruth: 'b' }), { embed })).toMatchObject({
      score: 1,
      passed: true,
      threshold: 0.75,
    });
    expect(await metric.evaluate(metricInput({ response: ' ', groundTruth: 'b' }), { embed })).toMatchObject({
      score: 0,
      passed: false,
      reason: 'the response is empty',
    });
    expect(await metric.evaluate(metricInput({ response: 'a' }), { embed })).toMatchObject({
      passed: false,
      error: 'similar needs a reference: add ground_truth to the test case, or value to the metric',
    });
    const failing = async () => {
      throw new Error('429 too many requests');
    };
    expect(await metric.evaluate(metricInput({ groundTruth: 'b' }), { embed: failing })).toMatchObject({
      passed: false,
      error: 'embeddings failed: 429 too many requests',
    });
  });

  describe('in agent.yaml', () => {
    let sandbox: AgentSandbox;
    beforeEach(async () => {
      sandbox = await createSandbox();
    });
    afterEach(() => sandbox.remove());

    it('on provider anthropic it needs an embedding_provider, and a reference', async () => {
      await sandbox.write(
        'agent.yaml',
        lines(
          ...BASE,
          'test_cases:',
          '  - name: a',
          '    input: hi',
          '    ground_truth: hello',
          '    metrics: [{ type: similar }]',
          '  - name: b',
          '    input: hi',
          '    metrics:',
          '      - { type: similar, embedding_provider: { provider: openai, name: text-embedding-3-small } }',
        ),
      );
      const agent = await loadAgent(sandbox.agentFile, { env: {}, homeDir: sandbox.home });
      const inspection = await inspectSuite(agent, { requireCases: true });
      expect(inspection.issues.map(brief)).toEqual([
        '15:9 test_cases[1].metrics[0]: metric similar of test case "b" needs a reference text (ground_truth or value), which the case does not give | add ground_truth to the test case, or value to the metric',
        '11:23 test_cases[0].metrics[0].type: similar compares embeddings, and provider anthropic has no embeddings API | add embedding_provider to agent.yaml or to the metric, e.g. embedding_provider: {provider: openai, name: text-embedding-3-small}',
      ]);
    });
  });
});
