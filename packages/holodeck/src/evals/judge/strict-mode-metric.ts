import type { Metric, MetricOutcome } from '../metric.js';
import { SCORE_TOLERANCE } from '../metric-outcome.js';

/**
 * DeepEval's `strict_mode`: the score becomes binary, 1 for a perfect answer (a score of 1) and 0
 * otherwise, and the threshold 1. An error outcome stays an error (score 0, failed).
 */
export function withStrictMode(metric: Metric): Metric {
  return {
    ...metric,
    async evaluate(input, context): Promise<MetricOutcome> {
      const outcome = await metric.evaluate(input, context);
      if (outcome.error !== undefined) return { ...outcome, threshold: 1 };
      const perfect = outcome.score >= 1 - SCORE_TOLERANCE;
      return {
        ...outcome,
        score: perfect ? 1 : 0,
        threshold: 1,
        passed: perfect && outcome.passed,
        reason: `strict_mode: ${perfect ? 'perfect' : `${Number(outcome.score.toFixed(3))} is not 1`}. ${outcome.reason}`,
      };
    },
  };
}
