import { z } from 'zod';
import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { metricName } from '../metric-outcome.js';
import { gradeItems, quoteItem } from './grade-items.js';
import { contextBlock, dataBlock, judgeSystemPrompt } from './judge-prompt.js';
import { missingInputOutcome, runJudgeMetric } from './run-judge-metric.js';

/** A parsed `contextual_relevancy` metric config. */
type ContextualRelevancyConfig = Extract<MetricConfig, { type: 'contextual_relevancy' }>;

const verdictSchema = z.strictObject({
  statements: z
    .array(
      z.strictObject({
        statement: z.string().describe('One statement of the retrieval context.'),
        relevant: z.boolean().describe('true if it is relevant to answering the user input.'),
        reason: z.string().describe('Why it is or is not relevant.'),
      }),
    )
    .describe('Every statement of every context chunk, in order.'),
});

const system = judgeSystemPrompt(
  'You check whether the statements of the retrieval context are relevant to the user input.',
);

function relevancyPrompt(input: MetricInput): string {
  return [
    dataBlock('user_input', input.input),
    contextBlock(input.context ?? []),
    'Split every context chunk into its statements. For each statement, decide whether it is ' +
      'relevant: true when it helps answer the user input, false otherwise.',
  ].join('\n\n');
}

/** Creates a `contextual_relevancy` metric: relevant statements / statements of the context. */
export function createContextualRelevancyMetric(config: ContextualRelevancyConfig): Metric {
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input, context) {
      const missing = missingInputOutcome(config, input, ['context']);
      if (missing) return missing;
      return runJudgeMetric(config, context, {
        system,
        prompt: relevancyPrompt(input),
        verdict: verdictSchema,
        grade: ({ statements }) =>
          gradeItems({
            items: statements,
            kept: (item) => item.relevant,
            label: (item) => quoteItem(item.statement),
            reason: (item) => item.reason,
            countLabel: 'context statements relevant to the input',
            rejectedLabel: 'Irrelevant',
            whenEmpty: { score: 0, reason: 'The judge found no statements in the context.' },
          }),
      });
    },
  };
}
