import { checkConfidence, checkCount } from './interval.js';

/** What chance alone produces when many cases are each checked for a change. */
export interface ChanceFindings {
  /** Expected number of cases flagged "regressed" although nothing changed. */
  expected: number;
  /** Probability that at least one is, if the cases are independent. */
  atLeastOne: number;
}

/**
 * With `tests` cases each flagged "regressed" when its two-sided interval at `confidence` lies
 * wholly below zero, a case that did not change is flagged with probability at most
 * (1 − confidence)/2 (one tail). So chance alone gives tests·(1 − c)/2 false regressions on
 * average, and at least one with probability 1 − (1 − (1 − c)/2)^tests.
 */
export function expectedFalseRegressions(tests: number, confidence = 0.95): ChanceFindings {
  checkCount('tests', tests);
  checkConfidence(confidence);
  const perTest = (1 - confidence) / 2;
  return { expected: tests * perTest, atLeastOne: 1 - (1 - perTest) ** tests };
}
