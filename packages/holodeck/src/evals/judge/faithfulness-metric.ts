import { z } from 'zod';
import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { metricName, scoredOutcome } from '../metric-outcome.js';
import { contextSourcesOf } from './context-sources.js';
import { gradeItems, quoteItem } from './grade-items.js';
import { contextBlock, dataBlock, judgeSystemPrompt } from './judge-prompt.js';
import { type JudgeGrade, missingInputOutcome, runJudgeMetric } from './run-judge-metric.js';

/** A parsed `faithfulness` metric config. */
type FaithfulnessConfig = Extract<MetricConfig, { type: 'faithfulness' }>;

/** The grade of a response that makes no claims (deepeval scores no verdicts as 1), given without a judge call. */
export const NO_CLAIMS_GRADE: JudgeGrade = { score: 1, reason: 'The response makes no claims.' };

const verdictSchema = z.strictObject({
  claims: z
    .array(
      z.strictObject({
        claim: z.string().describe('One factual claim of the response, self-contained.'),
        verdict: z
          .enum(['supported', 'contradicted', 'not_mentioned'])
          .describe(
            'supported: the context states or directly implies it; contradicted: the context says otherwise; ' +
              'not_mentioned: the context neither supports nor contradicts it.',
          ),
        reason: z.string().describe('Where the context supports or contradicts it, or that it is not there.'),
      }),
    )
    .describe('Every factual claim of the response, in order; empty if it makes none.'),
});

const system = judgeSystemPrompt('You check the claims of the agent response against the retrieval context.');

function faithfulnessPrompt(input: MetricInput): string {
  return [
    contextBlock(input.context ?? [], contextSourcesOf(input)),
    dataBlock('agent_response', input.response),
    'List every factual claim the agent response makes (skip greetings, questions and filler). ' +
      'For each, give a verdict: supported when the context states it or it follows directly from ' +
      'the context; contradicted when the context says otherwise; not_mentioned when the context ' +
      'says nothing either way. Use only the context, not your own knowledge.',
  ].join('\n\n');
}

/**
 * Creates a `faithfulness` metric, as deepeval defines it: faithful claims / claims, where a claim
 * is unfaithful only when the context contradicts it. With `penalize_ambiguous_claims`, a claim the
 * context does not mention is unfaithful too. A response without claims (a blank one included)
 * scores 1; a blank one is graded without asking the judge.
 */
export function createFaithfulnessMetric(config: FaithfulnessConfig): Metric {
  const strict = config.penalize_ambiguous_claims;
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input, context) {
      const missing = missingInputOutcome(config, input, ['context']);
      if (missing) return missing;
      if (input.response.trim() === '') {
        return scoredOutcome(config, NO_CLAIMS_GRADE.score, config.threshold, NO_CLAIMS_GRADE.reason);
      }
      return runJudgeMetric(config, context, {
        system,
        prompt: faithfulnessPrompt(input),
        verdict: verdictSchema,
        grade: ({ claims }) => {
          const grade = gradeItems({
            items: claims,
            kept: (item) => (strict ? item.verdict === 'supported' : item.verdict !== 'contradicted'),
            label: (item) => quoteItem(item.claim),
            reason: (item) => item.reason,
            countLabel: strict ? 'claims supported by the context' : 'claims not contradicted by the context',
            rejectedLabel: strict ? 'Unsupported' : 'Contradicted',
            whenEmpty: NO_CLAIMS_GRADE,
          });
          const unmentioned = claims.filter((item) => item.verdict === 'not_mentioned').length;
          if (strict || unmentioned === 0) return grade;
          const note = `${unmentioned} of them ${unmentioned === 1 ? 'is' : 'are'} not mentioned by the context (counted as faithful; penalize_ambiguous_claims: true counts them against).`;
          return { ...grade, reason: `${grade.reason} ${note}` };
        },
      });
    },
  };
}
