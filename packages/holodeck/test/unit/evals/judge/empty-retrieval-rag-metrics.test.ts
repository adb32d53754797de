import { describe, expect, it } from 'vitest';
import type { ToolCall, ToolResult } from '../../../../src/backends/contract/index.js';
import { createContextualPrecisionMetric } from '../../../../src/evals/judge/contextual-precision-metric.js';
import { createContextualRecallMetric } from '../../../../src/evals/judge/contextual-recall-metric.js';
import { createContextualRelevancyMetric } from '../../../../src/evals/judge/contextual-relevancy-metric.js';
import { createFaithfulnessMetric } from '../../../../src/evals/judge/faithfulness-metric.js';
import { metricConfig, metricInput, stubJudge } from './stub-judge.js';

// RAG metrics of a case without `context`, whose agent searched with its retrieval tools and got
// no passage back: they say so, instead of asking for a context the case does not need.
const metrics = [
  createFaithfulnessMetric(metricConfig({ type: 'faithfulness' })),
  createContextualRelevancyMetric(metricConfig({ type: 'contextual_relevancy' })),
  createContextualPrecisionMetric(metricConfig({ type: 'contextual_precision' })),
  createContextualRecallMetric(metricConfig({ type: 'contextual_recall' })),
];

/** A run's tool calls and results: one search per entry, answering `result` (an error when `error`). */
function searches(...entries: { name: string; result: string; error?: boolean }[]) {
  const toolCalls: ToolCall[] = entries.map((entry, index) => ({
    name: entry.name,
    call_id: `call-${index}`,
    arguments: { query: 'refunds' },
  }));
  const toolResults: ToolResult[] = entries.map((entry, index) => ({
    call_id: `call-${index}`,
    result: entry.result,
    is_error: entry.error === true,
  }));
  return { toolCalls, toolResults };
}

const none = (name: string) => ({ name, result: 'No results found.' });
const failed = (name: string, reason: string) => ({ name, result: `Search failed: ${reason}`, error: true });
const groundTruth = 'Refunds take 30 days.';

describe('RAG metrics when the retrieval searches found nothing', () => {
  it('fail with score 0, naming the searches, and never ask the judge', async () => {
    const input = metricInput({
      groundTruth,
      // As the Claude backend names them, and once as the AI SDK backend does.
      ...searches(none('mcp__holodeck_tools__handbook_search'), none('handbook_search')),
    });
    for (const metric of metrics) {
      const judge = stubJudge([]);
      const outcome = await metric.evaluate(input, { judge });
      expect(outcome).toEqual({
        name: metric.name,
        type: metric.type,
        score: 0,
        threshold: 0.5,
        passed: false,
        reason: "The agent's searches (handbook_search ×2) returned no passages; nothing to judge against.",
      });
      expect(judge.requests).toHaveLength(0);
    }
  });

  it('name each search tool, and the failed searches among them', async () => {
    const [faithfulness] = metrics;
    const outcome = await faithfulness?.evaluate(
      metricInput(
        searches(
          none('handbook_search'),
          failed('faq_search', 'the database is gone'),
          none('handbook_search'),
        ),
      ),
      { judge: stubJudge([]) },
    );
    expect(outcome?.reason).toBe(
      "The agent's searches (handbook_search ×2, faq_search) returned no passages (1 of them failed: the database is gone); nothing to judge against.",
    );
    expect(outcome?.error).toBeUndefined();
  });

  it('could not run when every search failed: an error with the search error', async () => {
    const [faithfulness] = metrics;
    const one = await faithfulness?.evaluate(
      metricInput(
        searches(failed('handbook_search', 'the embeddings API at http://x/v1/embeddings answered 500')),
      ),
      { judge: stubJudge([]) },
    );
    expect(one).toMatchObject({ score: 0, passed: false });
    expect(one?.error).toBe(
      "faithfulness has no context: the agent's search (handbook_search) failed: the embeddings API at http://x/v1/embeddings answered 500; nothing to judge against",
    );
    const two = await faithfulness?.evaluate(
      metricInput(searches(failed('handbook_search', 'locked'), failed('handbook_search', 'still locked'))),
      { judge: stubJudge([]) },
    );
    expect(two?.error).toBe(
      "faithfulness has no context: the agent's searches (handbook_search ×2) all failed (the first: locked); nothing to judge against",
    );
  });

  it('still ask for ground_truth where they need it', async () => {
    const recall = metrics[3];
    const outcome = await recall?.evaluate(metricInput(searches(none('handbook_search'))), {
      judge: stubJudge([]),
    });
    expect(outcome?.error).toBe(
      'contextual_recall needs ground_truth: add "ground_truth:" (the expected answer) to the test case',
    );
  });

  it('ask for context when no retrieval search ran (other tools do not count)', async () => {
    const [faithfulness] = metrics;
    const outcome = await faithfulness?.evaluate(
      metricInput(searches({ name: 'lookup_order', result: 'No results found.' })),
      { judge: stubJudge([]) },
    );
    expect(outcome?.error).toBe(
      'faithfulness needs context: add "context:" (the list of retrieved passages) to the test case',
    );
  });
});
