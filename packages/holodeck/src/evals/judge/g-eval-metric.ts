import { z } from 'zod';
import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { metricName } from '../metric-outcome.js';
import { dataBlock, judgeSystemPrompt } from './judge-prompt.js';
import { runJudgeMetric } from './run-judge-metric.js';

/** A parsed `g-eval` metric config (score_range and threshold defaulted by the config layer). */
type GEvalConfig = Extract<MetricConfig, { type: 'g-eval' }>;

/** Builds the prompt of one g-eval judgement. */
function gEvalPrompt(config: GEvalConfig, input: MetricInput, min: number, max: number): string {
  const parts = ['Evaluate the agent response below against these criteria.'];
  if (config.criteria !== undefined) parts.push(dataBlock('evaluation_criteria', config.criteria));
  if (config.evaluation_steps !== undefined) {
    const steps = config.evaluation_steps.map((step, index) => `${index + 1}. ${step}`).join('\n');
    parts.push(`Follow these evaluation steps:\n${dataBlock('evaluation_steps', steps)}`);
  } else {
    parts.push(
      'No evaluation steps are given: first work out the steps the criteria imply, then follow them.',
    );
  }
  parts.push(dataBlock('user_input', input.input), dataBlock('agent_response', input.response));
  if (input.groundTruth !== undefined) {
    parts.push(`The expected answer, for reference:\n${dataBlock('expected_answer', input.groundTruth)}`);
  }
  parts.push(
    `Give an integer score from ${min} (does not meet the criteria at all) to ${max} (fully meets them), ` +
      'and a reason that names what the response does well or gets wrong.',
  );
  return parts.join('\n\n');
}

/** Creates a `g-eval` metric: one judge call; the integer score is normalised to [0, 1]. */
export function createGEvalMetric(config: GEvalConfig): Metric {
  const [min, max] = config.score_range;
  // The reason comes first so the judge explains before it commits to a number.
  const verdict = z.strictObject({
    reason: z.string().describe('Why this score, citing specifics of the response.'),
    score: z.int().min(min).max(max).describe(`Integer from ${min} to ${max}.`),
  });
  const system = judgeSystemPrompt(
    `You score how well the agent's response meets the given evaluation criteria, on an integer scale from ${min} to ${max}.`,
  );
  return {
    name: metricName(config),
    type: config.type,
    evaluate: (input, context) =>
      runJudgeMetric(config, context, {
        system,
        prompt: gEvalPrompt(config, input, min, max),
        verdict,
        grade: ({ score, reason }) => ({ score: (score - min) / (max - min), reason }),
      }),
  };
}
