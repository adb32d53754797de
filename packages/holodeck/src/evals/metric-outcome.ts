import { clampScore, type MetricOutcome } from './metric.js';

/** The name a metric shows in reports: its `name`, else its type. */
export function metricName(config: { type: string; name?: string }): string {
  return config.name ?? config.type;
}

/** An outcome for a pass/fail check: score 1 or 0. */
export function checkOutcome(
  config: { type: string; name?: string },
  passed: boolean,
  reason: string,
): MetricOutcome {
  return { name: metricName(config), type: config.type, score: passed ? 1 : 0, passed, reason };
}

/**
 * How far below its threshold a score may be and still pass. Scores are floating-point sums and
 * quotients: ROUGE-L of 6 matching words of 7 against 8 computes 0.7999999999999999 for an exact
 * 0.8, and a report printing "0.800 vs threshold 0.8" must not say it failed. 1e-9 is far below
 * any difference a metric can mean (its inputs are counts of words and tokens) and far above
 * double rounding error (~1e-16).
 */
export const SCORE_TOLERANCE = 1e-9;

/** Whether `score` reaches `threshold`, within SCORE_TOLERANCE. */
export function meetsThreshold(score: number, threshold: number): boolean {
  return score >= threshold - SCORE_TOLERANCE;
}

/** An outcome for a scored metric: passed when score ≥ threshold (within SCORE_TOLERANCE). */
export function scoredOutcome(
  config: { type: string; name?: string },
  score: number,
  threshold: number,
  reason: string,
): MetricOutcome {
  const clamped = clampScore(score);
  return {
    name: metricName(config),
    type: config.type,
    score: clamped,
    threshold,
    passed: meetsThreshold(clamped, threshold),
    reason,
  };
}

/**
 * An outcome for a metric that could not run: never a pass, never silently skipped. A scored
 * metric passes its `threshold` so the report still shows the pass mark it missed.
 */
export function errorOutcome(
  config: { type: string; name?: string },
  error: string,
  threshold?: number,
): MetricOutcome {
  return {
    name: metricName(config),
    type: config.type,
    score: 0,
    ...(threshold === undefined ? {} : { threshold }),
    passed: false,
    reason: error,
    error,
  };
}
