import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { contextSourcesOf } from './context-sources.js';
import { itemShareMetric } from './item-share-metric.js';
import { contextBlock, dataBlock } from './judge-prompt.js';

/** A parsed `contextual_recall` metric config. */
type ContextualRecallConfig = Extract<MetricConfig, { type: 'contextual_recall' }>;

function recallPrompt(input: MetricInput): string {
  return [
    dataBlock('expected_answer', input.groundTruth ?? ''),
    contextBlock(input.context ?? [], contextSourcesOf(input)),
    'Split the expected answer into its sentences. For each, decide whether it is attributable: true ' +
      'when the information it states can be found in the retrieval context, false otherwise. ' +
      'Use only the context, not your own knowledge.',
  ].join('\n\n');
}

/** Creates a `contextual_recall` metric: attributable sentences / sentences of the ground truth. */
export const createContextualRecallMetric: (config: ContextualRecallConfig) => Metric = itemShareMetric({
  task: 'You check whether each sentence of the expected answer can be attributed to the retrieval context.',
  prompt: recallPrompt,
  list: { name: 'sentences', description: 'Every sentence of the expected answer, in order.' },
  item: { name: 'sentence', description: 'One sentence of the expected answer.' },
  flag: {
    name: 'attributable',
    description: 'true if the retrieval context contains what this sentence says.',
  },
  reason: 'Which chunk supports it, or what is missing from the context.',
  required: ['context', 'ground_truth'],
  countLabel: 'sentences of the expected answer found in the context',
  rejectedLabel: 'Not in the context',
  whenEmpty: { score: 0, reason: 'The judge found no sentences in the expected answer.' },
});
