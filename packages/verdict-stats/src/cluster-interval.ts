import { checkConfidence, checkCount, type Interval } from './interval.js';
import { passRateInterval, wilsonAt } from './wilson-interval.js';

/** The finished attempts of one cluster (one test case): how many ran, how many passed. */
export interface ClusterCounts {
  passes: number;
  attempts: number;
}

/** A suite pass rate with its cluster-robust interval and the sample size that interval rests on. */
export interface ClusterInterval extends Interval {
  /** Clusters (cases) with at least one finished attempt. */
  clusters: number;
  /** Finished attempts over every cluster. */
  attempts: number;
  /**
   * The effective number of independent attempts: attempts / design effect, at most `attempts`.
   * Equal to `clusters` when every attempt passed or every attempt failed (no variance to measure).
   */
  effectiveAttempts: number;
}

/**
 * The pass rate of a suite over its finished attempts, with an interval that treats the attempts
 * of one case as correlated (clustered by case): the ratio estimator p = Σ passes / Σ attempts,
 * its cluster-robust (CR1 sandwich) variance V = G/(G−1) · Σ_g (passes_g − p·attempts_g)² / N²,
 * and a Wilson interval at the effective sample size n_eff = p(1−p)/V (Korn & Graubard 1998,
 * Survey Methodology 24:193–201, with Wilson for Clopper–Pearson as in Dean & Pagano 2015).
 *
 * - One cluster: no between-case variation exists; the plain pass-rate interval of its attempts.
 * - p = 0 or p = 1 over several clusters: V is 0 and says nothing; each case counts as one
 *   attempt (n_eff = clusters), the rule of three at that size (see passRateInterval).
 * - No finished attempt: [0, 1].
 */
export function clusterPassRateInterval(
  clusters: readonly ClusterCounts[],
  confidence = 0.95,
): ClusterInterval {
  checkConfidence(confidence);
  let passes = 0;
  let attempts = 0;
  const finished: ClusterCounts[] = [];
  for (const cluster of clusters) {
    checkCount('attempts', cluster.attempts);
    checkCount('passes', cluster.passes);
    if (cluster.passes > cluster.attempts)
      throw new RangeError(`passes (${cluster.passes}) exceed attempts (${cluster.attempts})`);
    if (cluster.attempts === 0) continue;
    finished.push(cluster);
    passes += cluster.passes;
    attempts += cluster.attempts;
  }
  const count = finished.length;
  const sized = (interval: Interval, effectiveAttempts: number): ClusterInterval => ({
    ...interval,
    clusters: count,
    attempts,
    effectiveAttempts,
  });
  if (count <= 1) return sized(passRateInterval(passes, attempts, confidence), attempts);
  const p = passes / attempts;
  if (passes === 0 || passes === attempts) {
    const extreme = passRateInterval(passes === 0 ? 0 : count, count, confidence);
    return sized({ ...extreme, method: 'cluster-rule-of-three' }, count);
  }
  let sumOfSquares = 0;
  for (const cluster of finished) sumOfSquares += (cluster.passes - p * cluster.attempts) ** 2;
  const variance = ((count / (count - 1)) * sumOfSquares) / (attempts * attempts);
  const effective = variance > 0 ? Math.min(attempts, (p * (1 - p)) / variance) : attempts;
  return sized(wilsonAt(p, effective, confidence, 'cluster-wilson'), effective);
}
