import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { contextSourcesOf } from './context-sources.js';
import { itemShareMetric } from './item-share-metric.js';
import { contextBlock, dataBlock } from './judge-prompt.js';

/** A parsed `contextual_relevancy` metric config. */
type ContextualRelevancyConfig = Extract<MetricConfig, { type: 'contextual_relevancy' }>;

function relevancyPrompt(input: MetricInput): string {
  return [
    dataBlock('user_input', input.input),
    contextBlock(input.context ?? [], contextSourcesOf(input)),
    'Split every context chunk into its statements. For each statement, decide whether it is ' +
      'relevant: true when it helps answer the user input, false otherwise.',
  ].join('\n\n');
}

/** Creates a `contextual_relevancy` metric: relevant statements / statements of the context. */
export const createContextualRelevancyMetric: (config: ContextualRelevancyConfig) => Metric = itemShareMetric(
  {
    task: 'You check whether the statements of the retrieval context are relevant to the user input.',
    prompt: relevancyPrompt,
    list: { name: 'statements', description: 'Every statement of every context chunk, in order.' },
    item: { name: 'statement', description: 'One statement of the retrieval context.' },
    flag: { name: 'relevant', description: 'true if it is relevant to answering the user input.' },
    reason: 'Why it is or is not relevant.',
    required: ['context'],
    countLabel: 'context statements relevant to the input',
    rejectedLabel: 'Irrelevant',
    whenEmpty: { score: 0, reason: 'The judge found no statements in the context.' },
  },
);
