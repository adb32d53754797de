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

/** An outcome for a scored metric: passed when score ≥ threshold. */
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
    passed: clamped >= threshold,
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
