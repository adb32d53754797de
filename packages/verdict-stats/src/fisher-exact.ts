import { checkCount } from './interval.js';

/**
 * Two-sided p-value of Fisher's exact test for two independent proportions (`successes1` of
 * `trials1` against `successes2` of `trials2`): the probability, given the margins, of a table at
 * most as likely as the one observed (R. A. Fisher, The Design of Experiments, 1935, §2; the
 * "minimum likelihood" two-sided rule of R's fisher.test). Used for a p-value per case, which
 * Holm's correction then adjusts across cases.
 */
export function fisherExact(
  successes1: number,
  trials1: number,
  successes2: number,
  trials2: number,
): number {
  for (const [name, value] of [
    ['successes1', successes1],
    ['trials1', trials1],
    ['successes2', successes2],
    ['trials2', trials2],
  ] as const)
    checkCount(name, value);
  if (successes1 > trials1 || successes2 > trials2) throw new RangeError('successes exceed trials');
  const total = trials1 + trials2;
  const successes = successes1 + successes2;
  if (total === 0) return 1;
  const logFactorial = new Float64Array(total + 1);
  for (let i = 2; i <= total; i += 1) logFactorial[i] = (logFactorial[i - 1] ?? 0) + Math.log(i);
  const lf = (n: number) => logFactorial[n] ?? 0;
  const logChoose = (n: number, k: number) => lf(n) - lf(k) - lf(n - k);
  const logDenominator = logChoose(total, successes);
  const probability = (x: number) =>
    Math.exp(logChoose(trials1, x) + logChoose(trials2, successes - x) - logDenominator);
  const low = Math.max(0, successes - trials2);
  const high = Math.min(trials1, successes);
  const observed = probability(successes1);
  let p = 0;
  for (let x = low; x <= high; x += 1) {
    const value = probability(x);
    // Relative tolerance, as R uses, so ties in likelihood are not lost to rounding.
    if (value <= observed * (1 + 1e-7)) p += value;
  }
  return Math.min(1, p);
}
