import { clusterPassRateInterval, passRateInterval } from 'verdict-stats';
import type { MetricOutcome } from '../../evals/metric.js';
import type { CaseAttempt, CaseReport, PassInterval, RunSummary } from './run-report.js';

/**
 * The state of a case over its attempts:
 * - `stopped`: an interruption (Ctrl+C, SIGTERM) or a budget kept it from finishing; never a failure;
 * - `errored`: an attempt could not be graded: the agent run failed, or a deciding metric could
 *   not run (a judge that answered 500, a cost budget with the cost unknown);
 * - `flaky`: its finished attempts both passed and failed (the verdict is in `passed`);
 * - `passing` / `failing`: every finished attempt passed / failed.
 */
export type CaseState = 'passing' | 'failing' | 'flaky' | 'errored' | 'stopped';

/** Every state, in the order reports list them. */
export const CASE_STATES: readonly CaseState[] = ['passing', 'failing', 'flaky', 'errored', 'stopped'];

/** The default confidence level of every interval (`evaluations.confidence`). */
export const DEFAULT_CONFIDENCE = 0.95;

/** A deciding metric (weight ≠ 0) that could not run: its `error`, with the turn it belongs to. */
export function metricErrorOf(attempt: Pick<CaseAttempt, 'metrics' | 'turns'>): string | undefined {
  const failed = (metric: MetricOutcome) => metric.error !== undefined && metric.weight !== 0;
  const own = attempt.metrics.find(failed);
  if (own) return `metric ${own.name} could not run: ${own.error}`;
  for (const [index, turn] of (attempt.turns ?? []).entries()) {
    const metric = turn.metrics.find(failed);
    if (metric) return `turn ${index + 1} metric ${metric.name} could not run: ${metric.error}`;
  }
  return undefined;
}

/** Why an attempt could not be graded (its run error, else a deciding metric's), or undefined. */
export function attemptErrorOf(attempt: CaseAttempt): string | undefined {
  return attempt.error ?? metricErrorOf(attempt);
}

/** An attempt that ran to its end and was graded: neither errored nor interrupted. */
export function isFinished(attempt: CaseAttempt): boolean {
  return !attempt.interrupted && attemptErrorOf(attempt) === undefined;
}

/** The attempt counts behind a case's verdict. */
export interface AttemptCounts {
  /** Attempts graded to the end. */
  finished: number;
  /** Finished attempts that passed. */
  passed: number;
  /** Attempts that could not be graded (run error or metric error). */
  errored: number;
  /** Attempts the interruption stopped. */
  stopped: number;
}

/** Counts a case's attempts by how they ended. */
export function countAttempts(attempts: readonly CaseAttempt[]): AttemptCounts {
  const counts: AttemptCounts = { finished: 0, passed: 0, errored: 0, stopped: 0 };
  for (const attempt of attempts) {
    if (attempt.interrupted) counts.stopped += 1;
    else if (attemptErrorOf(attempt) !== undefined) counts.errored += 1;
    else {
      counts.finished += 1;
      if (attempt.passed) counts.passed += 1;
    }
  }
  return counts;
}

/** The state from the attempt counts and whether the case was kept from finishing. */
export function stateOf(counts: AttemptCounts, stopped: boolean): CaseState {
  if (stopped) return 'stopped';
  if (counts.errored > 0 || counts.finished === 0) return 'errored';
  if (counts.passed === counts.finished) return 'passing';
  return counts.passed === 0 ? 'failing' : 'flaky';
}

/**
 * The state of a case of a report: its recorded `state`, or (reports written before states were
 * recorded) the same rule applied to its attempts.
 */
export function caseStateOf(caseReport: CaseReport): CaseState {
  if (caseReport.state) return caseReport.state;
  if (caseReport.interrupted) return 'stopped';
  if (caseReport.attempts.length === 0)
    return caseReport.errored ? 'errored' : caseReport.passed ? 'passing' : 'failing';
  return stateOf(countAttempts(caseReport.attempts), false);
}

/** The interval of a pass rate over `finished` attempts; null below 2 ("one attempt, no interval"). */
export function passIntervalOf(passed: number, finished: number, confidence: number): PassInterval | null {
  if (finished < 2) return null;
  const interval = passRateInterval(passed, finished, confidence);
  return { lower: interval.lower, upper: interval.upper, confidence, method: interval.method };
}

/** A case's pass-rate interval: the recorded one, or computed from its attempts for older reports. */
export function caseIntervalOf(caseReport: CaseReport, confidence = DEFAULT_CONFIDENCE): PassInterval | null {
  if (caseReport.pass_interval !== undefined) return caseReport.pass_interval;
  const counts = countAttempts(caseReport.attempts);
  return passIntervalOf(counts.passed, counts.finished, confidence);
}

/** The attempt-level pass rate of a run over finished attempts, clustered by case. */
export function suiteAttemptFigures(
  cases: readonly CaseReport[],
  confidence: number,
): NonNullable<RunSummary['attempts']> {
  const perCase = cases.map((caseReport) => countAttempts(caseReport.attempts));
  const total = perCase.reduce(
    (sum, counts) => ({
      finished: sum.finished + counts.finished,
      passed: sum.passed + counts.passed,
      errored: sum.errored + counts.errored,
      stopped: sum.stopped + counts.stopped,
    }),
    { finished: 0, passed: 0, errored: 0, stopped: 0 },
  );
  const clusters = perCase.map((counts) => ({ passes: counts.passed, attempts: counts.finished }));
  const interval = clusterPassRateInterval(clusters, confidence);
  return {
    ...total,
    pass_rate: total.finished ? total.passed / total.finished : 0,
    pass_interval:
      total.finished < 2
        ? null
        : {
            lower: interval.lower,
            upper: interval.upper,
            confidence,
            method: interval.method,
            effective_attempts: Math.round(interval.effectiveAttempts * 100) / 100,
          },
  };
}
