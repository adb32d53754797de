import { z } from 'zod';
import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { metricName, scoredOutcome } from '../metric-outcome.js';
import { gradeItems, quoteItem } from './grade-items.js';
import { dataBlock, judgeSystemPrompt } from './judge-prompt.js';
import { runJudgeMetric } from './run-judge-metric.js';

/** A parsed `answer_relevancy` metric config. */
type AnswerRelevancyConfig = Extract<MetricConfig, { type: 'answer_relevancy' }>;

const verdictSchema = z.strictObject({
  statements: z
    .array(
      z.strictObject({
        statement: z.string().describe('One statement of the response.'),
        relevant: z.boolean().describe('true if it helps address the user input.'),
        reason: z.string().describe('Why it does or does not address the input.'),
      }),
    )
    .describe('Every statement of the response, in order.'),
});

const system = judgeSystemPrompt(
  'You check whether the statements of the agent response address the user input.',
);

function relevancyPrompt(input: MetricInput): string {
  return [
    dataBlock('user_input', input.input),
    dataBlock('agent_response', input.response),
    'Split the agent response into its statements. For each, decide whether it is relevant: true ' +
      'when it helps address the user input (supporting details count), false when it is off-topic ' +
      'or does not serve the request. Do not judge whether statements are true, only whether they are relevant.',
  ].join('\n\n');
}

/** Creates an `answer_relevancy` metric: relevant statements / statements of the response. */
export function createAnswerRelevancyMetric(config: AnswerRelevancyConfig): Metric {
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input, context) {
      // An empty answer addresses nothing; scoring it 1 ("no irrelevant statements") would hide a failed run.
      if (input.response.trim() === '') {
        return scoredOutcome(config, 0, config.threshold, 'The response is empty: it addresses nothing.');
      }
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
            countLabel: 'statements relevant to the input',
            rejectedLabel: 'Irrelevant',
            whenEmpty: { score: 1, reason: 'The response makes no statements.' },
          }),
      });
    },
  };
}
