import { checkConfidence, checkCount, clamp, type Interval } from './interval.js';
import { twoSidedZ } from './normal-quantile.js';

/**
 * The Wilson score interval for `successes` out of `trials` (E. B. Wilson, 1927), without
 * continuity correction: Newcombe (1998) method 3. Defined for any counts, including 0 and all.
 * Zero trials give the uninformative [0, 1] around an estimate of 0.
 */
export function wilsonScoreInterval(successes: number, trials: number, confidence = 0.95): Interval {
  checkConfidence(confidence);
  checkCount('trials', trials);
  checkCount('successes', successes);
  if (successes > trials) throw new RangeError(`successes (${successes}) exceed trials (${trials})`);
  if (trials === 0) return { estimate: 0, lower: 0, upper: 1, confidence, method: 'wilson' };
  return wilsonAt(successes / trials, trials, confidence, 'wilson');
}

/** Wilson's formula for an estimated proportion `p` over `n` (n may be fractional: an effective size). */
export function wilsonAt(p: number, n: number, confidence: number, method: string): Interval {
  const z = twoSidedZ(confidence);
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // The formula can put a bound a rounding error past the estimate or [0, 1]: keep it inside.
  return {
    estimate: p,
    lower: clamp(Math.min(centre - half, p), 0, 1),
    upper: clamp(Math.max(centre + half, p), 0, 1),
    confidence,
    method,
  };
}

/**
 * The interval of a pass rate: `passes` of `attempts` finished attempts.
 *
 * - 0 failures (every attempt passed, n ≥ 1): the rule of three in its exact form, [α^(1/n), 1]
 *   with α = 1 − c: the one-sided bound that "1 − 3/n at 95 %" approximates (Hanley &
 *   Lippman-Hand, JAMA 249 (1983) 1743–1745; −ln 0.05 = 2.996 ≈ 3). The exact form is used because
 *   1 − 3/n is useless below n ≈ 10 (≤ 0 for n ≤ 2): at n = 30, 95 %, it is 0.9050 against 0.9000.
 *   One-sided is right here: the other bound is 1 and leaves no tail.
 * - all failures (no attempt passed): the mirror image, [0, 1 − α^(1/n)].
 * - otherwise: the Wilson score interval.
 * - 0 attempts: [0, 1] (nothing is known), method `wilson`.
 */
export function passRateInterval(passes: number, attempts: number, confidence = 0.95): Interval {
  checkConfidence(confidence);
  checkCount('attempts', attempts);
  checkCount('passes', passes);
  if (passes > attempts) throw new RangeError(`passes (${passes}) exceed attempts (${attempts})`);
  if (attempts === 0) return wilsonScoreInterval(0, 0, confidence);
  const bound = (1 - confidence) ** (1 / attempts);
  if (passes === attempts)
    return { estimate: 1, lower: bound, upper: 1, confidence, method: 'rule-of-three' };
  if (passes === 0) return { estimate: 0, lower: 0, upper: 1 - bound, confidence, method: 'rule-of-three' };
  return wilsonScoreInterval(passes, attempts, confidence);
}
