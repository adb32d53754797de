import { checkConfidence, checkCount, type Interval } from './interval.js';
import { passRateInterval } from './wilson-interval.js';

/** The settings of `repeat: auto`. */
export interface SequentialPlan {
  /** Attempts always run (default 3 in HoloDeck). */
  min: number;
  /** Attempts never exceeded (default 10 in HoloDeck). */
  max: number;
  /** The pass mark the case's pass rate is compared with (its min_pass_rate). */
  threshold: number;
  /** The overall confidence of the decision, e.g. 0.95. */
  confidence: number;
}

/** Whether to run another attempt, and why. */
export type SequentialDecision =
  | { action: 'continue'; interval: Interval }
  | {
      action: 'stop';
      /** `decided`: the interval no longer straddles the threshold; `max`: the cap was reached first. */
      reason: 'decided' | 'max';
      /** The verdict at this point: the pass rate so far reaches the threshold. */
      passes: boolean;
      interval: Interval;
    };

/** Throws a RangeError unless the plan is usable. */
export function checkSequentialPlan(plan: SequentialPlan): void {
  checkConfidence(plan.confidence);
  checkCount('min', plan.min);
  checkCount('max', plan.max);
  if (plan.min < 1) throw new RangeError(`min must be at least 1, got ${plan.min}`);
  if (plan.max < plan.min) throw new RangeError(`max (${plan.max}) must be at least min (${plan.min})`);
  if (!(plan.threshold >= 0 && plan.threshold <= 1))
    throw new RangeError(`threshold must be between 0 and 1, got ${plan.threshold}`);
}

/**
 * The confidence used at each look: looking after every attempt from min to max is
 * max − min + 1 tests, so each uses 1 − (1 − c)/(looks) (Bonferroni), which keeps the chance of
 * any wrong early decision at most 1 − c however many looks are taken.
 */
export function perLookConfidence(plan: SequentialPlan): number {
  return 1 - (1 - plan.confidence) / (plan.max - plan.min + 1);
}

/**
 * After `passes` of `attempts` finished attempts: stop once at least `min` ran and the pass-rate
 * interval (passRateInterval at the per-look confidence) no longer straddles the threshold
 * strictly (not lower < threshold < upper), or once `max` ran. With threshold 1 (every attempt
 * must pass) a single failure decides, and `min` passes in a row decide too: no run of attempts
 * can show a rate above 1.
 */
export function decideNextAttempt(
  passes: number,
  attempts: number,
  plan: SequentialPlan,
): SequentialDecision {
  checkSequentialPlan(plan);
  const interval = passRateInterval(passes, attempts, perLookConfidence(plan));
  if (attempts < plan.min) return { action: 'continue', interval };
  const straddles = interval.lower < plan.threshold && plan.threshold < interval.upper;
  const verdict = attempts > 0 && passes / attempts >= plan.threshold;
  if (!straddles) return { action: 'stop', reason: 'decided', passes: verdict, interval };
  if (attempts >= plan.max) return { action: 'stop', reason: 'max', passes: verdict, interval };
  return { action: 'continue', interval };
}
