import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { itemShareMetric } from './item-share-metric.js';
import { contextBlock, dataBlock } from './judge-prompt.js';

/** A parsed `faithfulness` metric config. */
type FaithfulnessConfig = Extract<MetricConfig, { type: 'faithfulness' }>;

function faithfulnessPrompt(input: MetricInput): string {
  return [
    contextBlock(input.context ?? []),
    dataBlock('agent_response', input.response),
    'List every factual claim the agent response makes (skip greetings, questions and filler). ' +
      'For each, decide whether the retrieval context supports it: supported is true only when the ' +
      'context states it or it follows directly from the context. A claim the context contradicts ' +
      'or does not mention is not supported. Use only the context, not your own knowledge.',
  ].join('\n\n');
}

/** Creates a `faithfulness` metric: supported claims / claims of the response (1 when it makes none). */
export const createFaithfulnessMetric: (config: FaithfulnessConfig) => Metric = itemShareMetric({
  task: 'You check whether the claims of the agent response are supported by the retrieval context.',
  prompt: faithfulnessPrompt,
  list: {
    name: 'claims',
    description: 'Every factual claim of the response, in order; empty if it makes none.',
  },
  item: { name: 'claim', description: 'One factual claim of the response, self-contained.' },
  flag: {
    name: 'supported',
    description: 'true only if the retrieval context states or directly implies it.',
  },
  reason: 'Where the context supports it, or what it lacks or contradicts.',
  required: ['context'],
  whenResponseEmpty: { score: 1, reason: 'The response is empty: it makes no claims.' },
  countLabel: 'claims supported by the context',
  rejectedLabel: 'Unsupported',
  whenEmpty: { score: 1, reason: 'The response makes no factual claims.' },
});
