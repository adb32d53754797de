import { z } from 'zod';
import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { metricName, scoredOutcome } from '../metric-outcome.js';
import { gradeItems, quoteItem } from './grade-items.js';
import { contextBlock, dataBlock, judgeSystemPrompt } from './judge-prompt.js';
import { missingInputOutcome, runJudgeMetric } from './run-judge-metric.js';

/** A parsed `faithfulness` metric config. */
type FaithfulnessConfig = Extract<MetricConfig, { type: 'faithfulness' }>;

const verdictSchema = z.strictObject({
  claims: z
    .array(
      z.strictObject({
        claim: z.string().describe('One factual claim of the response, self-contained.'),
        supported: z.boolean().describe('true only if the retrieval context states or directly implies it.'),
        reason: z.string().describe('Where the context supports it, or what it lacks or contradicts.'),
      }),
    )
    .describe('Every factual claim of the response, in order; empty if it makes none.'),
});

const system = judgeSystemPrompt(
  'You check whether the claims of the agent response are supported by the retrieval context.',
);

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
export function createFaithfulnessMetric(config: FaithfulnessConfig): Metric {
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input, context) {
      const missing = missingInputOutcome(config, input, ['context']);
      if (missing) return missing;
      if (input.response.trim() === '') {
        return scoredOutcome(config, 1, config.threshold, 'The response is empty: it makes no claims.');
      }
      return runJudgeMetric(config, context, {
        system,
        prompt: faithfulnessPrompt(input),
        verdict: verdictSchema,
        grade: ({ claims }) =>
          gradeItems({
            items: claims,
            kept: (item) => item.supported,
            label: (item) => quoteItem(item.claim),
            reason: (item) => item.reason,
            countLabel: 'claims supported by the context',
            rejectedLabel: 'Unsupported',
            whenEmpty: { score: 1, reason: 'The response makes no factual claims.' },
          }),
      });
    },
  };
}
