import {
  differenceInterval,
  expectedFalseRegressions,
  fisherExact,
  holmAdjust,
  mcnemarExact,
  type PairedCounts,
  pairedBootstrapDifference,
} from 'verdict-stats';
import { caseStateOf, countAttempts } from './case-state.js';
import type { CaseReport } from './run-report.js';

/** Passed and finished attempts of a case in one run. */
export interface AttemptTally {
  passed: number;
  finished: number;
}

/** An interval of a change (current − baseline), in pass-rate units (−1 … 1). */
export interface ChangeInterval {
  estimate: number;
  lower: number;
  upper: number;
  confidence: number;
  method: string;
}

/** One case both runs finished: its change in pass rate with its interval and p-values. */
export interface CaseStatistics {
  baseline: AttemptTally;
  current: AttemptTally;
  /** Newcombe's hybrid score interval of current − baseline pass rate. */
  delta: ChangeInterval;
  /** Fisher's exact two-sided p-value of the same change. */
  pValue: number;
  /** Holm-adjusted over every compared case (family-wise). */
  holmPValue: number;
  /** Higher pass rate now: win; lower: loss; equal: tie. */
  outcome: 'win' | 'loss' | 'tie';
  /** The interval excludes 0: below → regressed, above → improved. */
  verdict: 'regressed' | 'improved' | 'no-significant-change';
}

/** The suite over the cases both runs finished. */
export interface SuiteStatistics {
  confidence: number;
  cases: number;
  /** Attempt-level pass rates over those cases. */
  baselinePassRate: number;
  currentPassRate: number;
  /** Paired (case-resampling) bootstrap of current − baseline; seeded, so reproducible. */
  delta: ChangeInterval & { seed: number; resamples: number; standardError: number };
  /** The exact McNemar test, when every compared case ran once in each run; else null. */
  mcnemar: { baselineOnly: number; currentOnly: number; pValue: number } | null;
  wins: number;
  losses: number;
  ties: number;
  /** What chance alone gives over this many compared cases at this confidence. */
  chance: { expectedFalseRegressions: number; atLeastOne: number };
  verdict: 'regressed' | 'improved' | 'no-significant-change';
  /**
   * What decided the verdict: `mcnemar` (every case ran once in each run: p < 1 − confidence),
   * `bootstrap` (the interval above excludes 0; from MIN_BOOTSTRAP_CASES cases up), or
   * `pooled-newcombe` (fewer cases: a case-resampling bootstrap of so few cases is too narrow, so
   * Newcombe's interval of the pooled attempts decides).
   */
  verdictBasis: 'mcnemar' | 'bootstrap' | 'pooled-newcombe';
}

/** Fewer compared cases than this and the bootstrap does not decide the suite's verdict. */
export const MIN_BOOTSTRAP_CASES = 10;

/** A case that finished (passing, failing or flaky): it has a pass rate to compare. */
export function hasFinished(caseReport: CaseReport): boolean {
  const state = caseStateOf(caseReport);
  return state === 'passing' || state === 'failing' || state === 'flaky';
}

/** Why a case present in both runs cannot be compared: `errored in this run`, `stopped in the baseline`. */
export function notComparedReason(current: CaseReport, baseline: CaseReport): string | undefined {
  const parts: string[] = [];
  if (!hasFinished(current)) parts.push(`${caseStateOf(current)} in this run`);
  if (!hasFinished(baseline)) parts.push(`${caseStateOf(baseline)} in the baseline`);
  return parts.length ? parts.join(', ') : undefined;
}

function tally(caseReport: CaseReport): AttemptTally {
  const counts = countAttempts(caseReport.attempts);
  // A report without attempts (format 1 style) still has its verdict: one attempt.
  if (caseReport.attempts.length === 0) return { passed: caseReport.passed ? 1 : 0, finished: 1 };
  return { passed: counts.passed, finished: counts.finished };
}

function verdictOf(interval: { lower: number; upper: number }): CaseStatistics['verdict'] {
  if (interval.upper < 0) return 'regressed';
  if (interval.lower > 0) return 'improved';
  return 'no-significant-change';
}

function suiteVerdict(
  tallies: readonly { current: AttemptTally; baseline: AttemptTally }[],
  bootstrap: { estimate: number; lower: number; upper: number },
  mcnemar: { baselineOnly: number; currentOnly: number; pValue: number } | null,
  confidence: number,
): Pick<SuiteStatistics, 'verdict' | 'verdictBasis'> {
  if (mcnemar) {
    const significant = mcnemar.pValue < 1 - confidence && mcnemar.baselineOnly !== mcnemar.currentOnly;
    const direction = mcnemar.baselineOnly > mcnemar.currentOnly ? 'regressed' : 'improved';
    return { verdict: significant ? direction : 'no-significant-change', verdictBasis: 'mcnemar' };
  }
  if (tallies.length >= MIN_BOOTSTRAP_CASES)
    return { verdict: verdictOf(bootstrap), verdictBasis: 'bootstrap' };
  const total = (pick: (entry: (typeof tallies)[number]) => number) =>
    tallies.reduce((sum, entry) => sum + pick(entry), 0);
  const pooled = differenceInterval(
    total((e) => e.current.passed),
    total((e) => e.current.finished),
    total((e) => e.baseline.passed),
    total((e) => e.baseline.finished),
    confidence,
  );
  return {
    verdict: tallies.length ? verdictOf(pooled) : 'no-significant-change',
    verdictBasis: 'pooled-newcombe',
  };
}

/** The statistics of every pair (current, baseline) both runs finished, and of the suite over them. */
export function compareStatistics(
  pairs: readonly { current: CaseReport; baseline: CaseReport }[],
  confidence: number,
): { cases: CaseStatistics[]; suite: SuiteStatistics } {
  const tallies = pairs.map((pair) => ({ current: tally(pair.current), baseline: tally(pair.baseline) }));
  // Cases with the same tallies have the same p-value and interval: a suite of 1,000 cases with a
  // few attempts each has a few dozen distinct ones, each computed once (bench/verdicts.mjs).
  const known = new Map<string, { pValue: number; interval: ChangeInterval }>();
  const figures = tallies.map(({ current, baseline }) => {
    const key = `${current.passed}/${current.finished}/${baseline.passed}/${baseline.finished}`;
    let found = known.get(key);
    if (!found) {
      found = {
        pValue: fisherExact(current.passed, current.finished, baseline.passed, baseline.finished),
        interval: differenceInterval(
          current.passed,
          current.finished,
          baseline.passed,
          baseline.finished,
          confidence,
        ),
      };
      known.set(key, found);
    }
    return found;
  });
  const pValues = figures.map((figure) => figure.pValue);
  const holm = holmAdjust(pValues);
  const cases = tallies.map((entry, index): CaseStatistics => {
    const interval = figures[index]?.interval ?? {
      estimate: 0,
      lower: -1,
      upper: 1,
      confidence,
      method: 'none',
    };
    const delta = { ...interval };
    const currentRate = entry.current.passed / entry.current.finished;
    const baselineRate = entry.baseline.passed / entry.baseline.finished;
    return {
      ...entry,
      delta,
      pValue: pValues[index] ?? 1,
      holmPValue: holm[index] ?? 1,
      outcome: currentRate > baselineRate ? 'win' : currentRate < baselineRate ? 'loss' : 'tie',
      verdict: verdictOf(delta),
    };
  });
  const paired: PairedCounts[] = tallies.map((entry) => ({
    baseline: { passes: entry.baseline.passed, attempts: entry.baseline.finished },
    current: { passes: entry.current.passed, attempts: entry.current.finished },
  }));
  const bootstrap = pairedBootstrapDifference(paired, { confidence });
  const sum = (pick: (entry: (typeof tallies)[number]) => number) =>
    tallies.reduce((total, entry) => total + pick(entry), 0);
  const single =
    tallies.length > 0 && tallies.every((e) => e.current.finished === 1 && e.baseline.finished === 1);
  const mcnemar = single
    ? mcnemarExact(
        tallies.filter((e) => e.baseline.passed === 1 && e.current.passed === 0).length,
        tallies.filter((e) => e.baseline.passed === 0 && e.current.passed === 1).length,
      )
    : null;
  const chance = expectedFalseRegressions(cases.length, confidence);
  const rate = (passed: number, finished: number) => (finished ? passed / finished : 0);
  const delta = {
    estimate: bootstrap.estimate,
    lower: bootstrap.lower,
    upper: bootstrap.upper,
    confidence,
    method: bootstrap.method,
    seed: bootstrap.seed,
    resamples: bootstrap.resamples,
    standardError: bootstrap.standardError,
  };
  return {
    cases,
    suite: {
      confidence,
      cases: cases.length,
      baselinePassRate: rate(
        sum((e) => e.baseline.passed),
        sum((e) => e.baseline.finished),
      ),
      currentPassRate: rate(
        sum((e) => e.current.passed),
        sum((e) => e.current.finished),
      ),
      delta,
      mcnemar,
      wins: cases.filter((entry) => entry.outcome === 'win').length,
      losses: cases.filter((entry) => entry.outcome === 'loss').length,
      ties: cases.filter((entry) => entry.outcome === 'tie').length,
      chance: { expectedFalseRegressions: chance.expected, atLeastOne: chance.atLeastOne },
      ...suiteVerdict(tallies, delta, mcnemar, confidence),
    },
  };
}
