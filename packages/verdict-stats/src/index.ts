// verdict-stats: the statistics behind pass/fail verdicts, shared by HoloDeck and Novarch.
// Pure functions, no dependencies. Explicit export list, pinned by test/unit/index.test.ts.

export {
  type ClusterCounts,
  type ClusterInterval,
  clusterPassRateInterval,
} from './cluster-interval.js';
export { cohenKappa, cohenKappaOfLabels, type KappaResult } from './cohen-kappa.js';
export { differenceInterval } from './difference-interval.js';
export { type ChanceFindings, expectedFalseRegressions } from './expected-false-findings.js';
export { fisherExact } from './fisher-exact.js';
export { holmAdjust } from './holm-adjust.js';
export type { Interval } from './interval.js';
export { binomialHalfCdf, type McNemarResult, mcnemarExact } from './mcnemar-exact.js';
export { normalQuantile, twoSidedZ } from './normal-quantile.js';
export {
  type BootstrapInterval,
  type PairedBootstrapOptions,
  type PairedCounts,
  pairedBootstrapDifference,
} from './paired-bootstrap.js';
export { type RandomSource, seededRandom } from './seeded-random.js';
export {
  checkSequentialPlan,
  decideNextAttempt,
  perLookConfidence,
  type SequentialDecision,
  type SequentialPlan,
} from './sequential-stop.js';
export { passRateInterval, wilsonScoreInterval } from './wilson-interval.js';
