import { checkConfidence } from './interval.js';

// Acklam's rational approximation of the inverse normal CDF (relative error < 1.15e-9),
// P. J. Acklam, "An algorithm for computing the inverse normal cumulative distribution function" (2003).
const A = [
  -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
  2.506628277459239,
];
const B = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
const C = [
  -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
  2.938163982698783,
];
const D = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
const LOW = 0.02425;

function poly(coefficients: readonly number[], x: number): number {
  return coefficients.reduce((sum, coefficient) => sum * x + coefficient, 0);
}

/** The p-quantile of the standard normal distribution, for 0 < p < 1. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`p must be between 0 and 1 (exclusive), got ${p}`);
  if (p < LOW) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(C, q) / (poly(D, q) * q + 1);
  }
  if (p > 1 - LOW) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return -poly(C, q) / (poly(D, q) * q + 1);
  }
  const q = p - 0.5;
  const r = q * q;
  return (poly(A, r) * q) / (poly(B, r) * r + 1);
}

const zByConfidence = new Map<number, number>();

/** The two-sided critical value z for a confidence level: 1.959964 for 0.95 (memoised). */
export function twoSidedZ(confidence: number): number {
  const known = zByConfidence.get(confidence);
  if (known !== undefined) return known;
  checkConfidence(confidence);
  const z = normalQuantile(1 - (1 - confidence) / 2);
  if (zByConfidence.size < 64) zByConfidence.set(confidence, z);
  return z;
}
