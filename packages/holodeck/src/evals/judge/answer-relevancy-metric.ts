import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { itemShareMetric } from './item-share-metric.js';
import { dataBlock } from './judge-prompt.js';

/** A parsed `answer_relevancy` metric config. */
type AnswerRelevancyConfig = Extract<MetricConfig, { type: 'answer_relevancy' }>;

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
export const createAnswerRelevancyMetric: (config: AnswerRelevancyConfig) => Metric = itemShareMetric({
  task: 'You check whether the statements of the agent response address the user input.',
  prompt: relevancyPrompt,
  list: { name: 'statements', description: 'Every statement of the response, in order.' },
  item: { name: 'statement', description: 'One statement of the response.' },
  flag: { name: 'relevant', description: 'true if it helps address the user input.' },
  reason: 'Why it does or does not address the input.',
  // An empty answer addresses nothing; scoring it 1 ("no irrelevant statements") would hide a failed run.
  whenResponseEmpty: { score: 0, reason: 'The response is empty: it addresses nothing.' },
  countLabel: 'statements relevant to the input',
  rejectedLabel: 'Irrelevant',
  whenEmpty: { score: 1, reason: 'The response makes no statements.' },
});
