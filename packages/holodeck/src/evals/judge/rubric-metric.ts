import { z } from 'zod';
import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { metricName } from '../metric-outcome.js';
import { dataBlock, judgeSystemPrompt } from './judge-prompt.js';
import { runJudgeMetric } from './run-judge-metric.js';

/** A parsed `rubric` metric config. */
type RubricConfig = Extract<MetricConfig, { type: 'rubric' }>;

const verdictSchema = z.strictObject({
  reason: z.string().describe('Which requirements of the rubric are met or missed, specifically.'),
  pass: z.boolean().describe('true only if the response satisfies every requirement of the rubric.'),
  score: z.number().min(0).max(1).describe('How fully the rubric is satisfied: 0 not at all, 1 completely.'),
});

const system = judgeSystemPrompt('You decide whether the agent response satisfies a rubric.');

function rubricPrompt(rubric: string, input: MetricInput): string {
  const parts = [
    'Check the agent response below against this rubric.',
    dataBlock('rubric', rubric),
    dataBlock('user_input', input.input),
    dataBlock('agent_response', input.response),
  ];
  if (input.groundTruth !== undefined) {
    parts.push(`The expected answer, for reference:\n${dataBlock('expected_answer', input.groundTruth)}`);
  }
  parts.push(
    'Set pass to true only if the response meets every requirement of the rubric; score how fully it ' +
      'meets the rubric from 0 to 1; give the reason.',
  );
  return parts.join('\n\n');
}

/**
 * Creates a `rubric` metric. Passed needs score ≥ threshold and the judge's `pass`: a judge that
 * says the rubric is not met is never overruled by a generous score.
 */
export function createRubricMetric(config: RubricConfig): Metric {
  return {
    name: metricName(config),
    type: config.type,
    evaluate: (input, context) =>
      runJudgeMetric(config, context, {
        system,
        prompt: rubricPrompt(config.value, input),
        verdict: verdictSchema,
        grade: ({ score, pass, reason }) => ({
          score,
          reason: `${pass ? 'Rubric met' : 'Rubric not met'}: ${reason}`,
          vetoed: !pass,
        }),
      }),
  };
}
