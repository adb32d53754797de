import { z } from 'zod';
import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { metricName } from '../metric-outcome.js';
import { gradeItems, quoteItem } from './grade-items.js';
import { contextBlock, dataBlock, judgeSystemPrompt } from './judge-prompt.js';
import { missingInputOutcome, runJudgeMetric } from './run-judge-metric.js';

/** A parsed `contextual_recall` metric config. */
type ContextualRecallConfig = Extract<MetricConfig, { type: 'contextual_recall' }>;

const verdictSchema = z.strictObject({
  sentences: z
    .array(
      z.strictObject({
        sentence: z.string().describe('One sentence of the expected answer.'),
        attributable: z.boolean().describe('true if the retrieval context contains what this sentence says.'),
        reason: z.string().describe('Which chunk supports it, or what is missing from the context.'),
      }),
    )
    .describe('Every sentence of the expected answer, in order.'),
});

const system = judgeSystemPrompt(
  'You check whether each sentence of the expected answer can be attributed to the retrieval context.',
);

function recallPrompt(input: MetricInput): string {
  return [
    dataBlock('expected_answer', input.groundTruth ?? ''),
    contextBlock(input.context ?? []),
    'Split the expected answer into its sentences. For each, decide whether it is attributable: true ' +
      'when the information it states can be found in the retrieval context, false otherwise. ' +
      'Use only the context, not your own knowledge.',
  ].join('\n\n');
}

/** Creates a `contextual_recall` metric: attributable sentences / sentences of the ground truth. */
export function createContextualRecallMetric(config: ContextualRecallConfig): Metric {
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input, context) {
      const missing = missingInputOutcome(config, input, ['context', 'ground_truth']);
      if (missing) return missing;
      return runJudgeMetric(config, context, {
        system,
        prompt: recallPrompt(input),
        verdict: verdictSchema,
        grade: ({ sentences }) =>
          gradeItems({
            items: sentences,
            kept: (item) => item.attributable,
            label: (item) => quoteItem(item.sentence),
            reason: (item) => item.reason,
            countLabel: 'sentences of the expected answer found in the context',
            rejectedLabel: 'Not in the context',
            whenEmpty: { score: 0, reason: 'The judge found no sentences in the expected answer.' },
          }),
      });
    },
  };
}
