import { checkCount } from './interval.js';

/** The exact McNemar test of paired binary outcomes. */
export interface McNemarResult {
  /** Pairs that passed in the baseline and failed in the current run. */
  baselineOnly: number;
  /** Pairs that failed in the baseline and passed in the current run. */
  currentOnly: number;
  /** Two-sided exact p-value. */
  pValue: number;
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space so large n does not underflow. */
export function binomialHalfCdf(k: number, n: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  const logHalf = n * Math.log(0.5);
  let logChoose = 0;
  let total = Math.exp(logHalf);
  for (let i = 1; i <= k; i += 1) {
    logChoose += Math.log(n - i + 1) - Math.log(i);
    total += Math.exp(logChoose + logHalf);
  }
  return Math.min(1, total);
}

/**
 * The exact (conditional binomial) McNemar test (McNemar 1947; exact form as in Fagerland,
 * Lydersen & Laake, BMC Medical Research Methodology 13:91, 2013): under "no change" the
 * discordant pairs split as Binomial(b + c, 1/2); p = min(1, 2·P(X ≤ min(b, c))). No discordant
 * pair: p = 1.
 */
export function mcnemarExact(baselineOnly: number, currentOnly: number): McNemarResult {
  checkCount('baselineOnly', baselineOnly);
  checkCount('currentOnly', currentOnly);
  const discordant = baselineOnly + currentOnly;
  const pValue =
    discordant === 0 ? 1 : Math.min(1, 2 * binomialHalfCdf(Math.min(baselineOnly, currentOnly), discordant));
  return { baselineOnly, currentOnly, pValue };
}
