import { z } from 'zod';
import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { metricName } from '../metric-outcome.js';
import { contextSourcesOf } from './context-sources.js';
import { gradeItems } from './grade-items.js';
import { contextBlock, dataBlock, judgeSystemPrompt } from './judge-prompt.js';
import { missingInputOutcome, runJudgeMetric } from './run-judge-metric.js';

/** A parsed `contextual_precision` metric config. */
type ContextualPrecisionConfig = Extract<MetricConfig, { type: 'contextual_precision' }>;

/** One verdict per chunk, in context order: the schema pins the count so none can be skipped. */
function verdictSchemaFor(chunkCount: number) {
  return z.strictObject({
    chunks: z
      .array(
        z.strictObject({
          relevant: z.boolean().describe('true if this chunk is useful for arriving at the expected answer.'),
          reason: z.string().describe('What in the chunk helps, or why it does not.'),
        }),
      )
      .length(chunkCount)
      .describe(`Exactly ${chunkCount} verdicts: one per context chunk, in chunk order.`),
  });
}

const system = judgeSystemPrompt(
  'You judge, chunk by chunk, whether retrieved context is useful for arriving at the expected answer.',
);

function precisionPrompt(input: MetricInput, context: readonly string[]): string {
  return [
    dataBlock('user_input', input.input),
    dataBlock('expected_answer', input.groundTruth ?? ''),
    contextBlock(context, contextSourcesOf(input)),
    `For each of the ${context.length} numbered context chunks, in order, decide whether it is relevant: ` +
      'true when it contains information that helps arrive at the expected answer to the user input, ' +
      'false otherwise. Return exactly one verdict per chunk.',
  ].join('\n\n');
}

/**
 * Weighted precision of a ranking: the mean, over the positions k holding a relevant chunk,
 * of precision@k. 0 when no chunk is relevant.
 */
export function weightedPrecision(relevant: readonly boolean[]): number {
  let relevantSoFar = 0;
  let sum = 0;
  relevant.forEach((isRelevant, index) => {
    if (!isRelevant) return;
    relevantSoFar++;
    sum += relevantSoFar / (index + 1);
  });
  return relevantSoFar === 0 ? 0 : sum / relevantSoFar;
}

/** Creates a `contextual_precision` metric: are the relevant chunks ranked first? Needs ground_truth. */
export function createContextualPrecisionMetric(config: ContextualPrecisionConfig): Metric {
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input, context) {
      const missing = missingInputOutcome(config, input, ['context', 'ground_truth']);
      if (missing) return missing;
      const chunks = input.context ?? [];
      return runJudgeMetric(config, context, {
        system,
        prompt: precisionPrompt(input, chunks),
        verdict: verdictSchemaFor(chunks.length),
        grade: ({ chunks: verdicts }) =>
          gradeItems({
            items: verdicts,
            kept: (item) => item.relevant,
            label: (_item, index) => `chunk ${index + 1}`,
            reason: (item) => item.reason,
            countLabel: 'context chunks relevant to the expected answer (weighted by rank)',
            rejectedLabel: 'Irrelevant',
            whenEmpty: { score: 0, reason: 'The judge returned no chunk verdicts.' },
            score: weightedPrecision,
          }),
      });
    },
  };
}
