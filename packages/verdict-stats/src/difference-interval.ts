import { checkConfidence, type Interval } from './interval.js';
import { wilsonScoreInterval } from './wilson-interval.js';

/**
 * The interval of p₁ − p₂ for two independent proportions (`successes1/trials1` minus
 * `successes2/trials2`): Newcombe's hybrid score interval, method 10 of R. G. Newcombe,
 * "Interval estimation for the difference between independent proportions", Statistics in
 * Medicine 17 (1998) 873–890, built from the two Wilson intervals. Used for one case's change in
 * pass rate between two runs (its attempts in each run are independent samples).
 */
export function differenceInterval(
  successes1: number,
  trials1: number,
  successes2: number,
  trials2: number,
  confidence = 0.95,
): Interval {
  checkConfidence(confidence);
  const first = wilsonScoreInterval(successes1, trials1, confidence);
  const second = wilsonScoreInterval(successes2, trials2, confidence);
  const p1 = first.estimate;
  const p2 = second.estimate;
  const delta = p1 - p2;
  const lower = delta - Math.sqrt((p1 - first.lower) ** 2 + (second.upper - p2) ** 2);
  const upper = delta + Math.sqrt((first.upper - p1) ** 2 + (p2 - second.lower) ** 2);
  return {
    estimate: delta,
    lower: Math.max(-1, Math.min(lower, delta)),
    upper: Math.min(1, Math.max(upper, delta)),
    confidence,
    method: 'newcombe-hybrid-score',
  };
}
