import type { MetricOutcome } from '../../evals/metric.js';
import { countAttempts } from './case-state.js';
import { describeCasePassRate } from './format-interval.js';
import { formatPercent, formatScore } from './format-units.js';
import type { CaseAttempt, CaseReport } from './run-report.js';

/**
 * How a case ended: `error` when no attempt ran, `pass` when enough attempts passed, `stopped` when
 * an interruption (Ctrl+C, SIGTERM) kept it from finishing, else `fail`.
 */
export type CaseStatus = 'pass' | 'fail' | 'error' | 'stopped';

/** Upper-case labels used by every renderer. */
export const STATUS_LABEL: Record<CaseStatus, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  error: 'ERROR',
  stopped: 'STOPPED',
};

/** The status of a case from its `interrupted`, `errored` and `passed` flags. */
export function caseStatus(caseReport: Pick<CaseReport, 'passed' | 'errored' | 'interrupted'>): CaseStatus {
  if (caseReport.interrupted) return 'stopped';
  if (caseReport.errored) return 'error';
  return caseReport.passed ? 'pass' : 'fail';
}

/** A case some of whose finished attempts passed and some failed. */
export function isFlaky(caseReport: Pick<CaseReport, 'attempts'>): boolean {
  const counts = countAttempts(caseReport.attempts);
  return counts.passed > 0 && counts.passed < counts.finished;
}

/**
 * `2/3 finished attempts passed (66.7%), [20.8%, 93.9%] at 95% · needs 100% · pass@3 1 · pass^3 0 ·
 * flaky` for a case run more than once; undefined for a single attempt. The same words in the
 * terminal, Markdown and JUnit.
 */
export function describeRepeats(caseReport: CaseReport): string | undefined {
  if (caseReport.attempts.length <= 1) return undefined;
  const finished = countAttempts(caseReport.attempts).finished;
  const parts = [
    describeCasePassRate(caseReport),
    `needs ${formatPercent(caseReport.min_pass_rate)}`,
    `pass@${finished} ${formatScore(caseReport.pass_at_k)}`,
    `pass^${finished} ${formatScore(caseReport.pass_pow_k)}`,
  ];
  if (isFlaky(caseReport)) parts.push('flaky');
  if (caseReport.repeat_stop) parts.push(caseReport.repeat_stop.reason);
  return parts.join(' · ');
}

/** A metric that failed, and the turn it belongs to in a multi-turn case. */
export interface MetricFailure {
  metric: MetricOutcome;
  /** 1-based turn number, for metrics graded per turn. */
  turn?: number;
}

/** The failed metrics of one attempt: its own, then those of its turns. */
export function failuresOfAttempt(attempt: Pick<CaseAttempt, 'metrics' | 'turns'>): MetricFailure[] {
  // A weight-0 metric is reported, not deciding: its failure is not why the attempt failed.
  const failed = (metric: MetricOutcome) => !metric.passed && metric.weight !== 0;
  const failures: MetricFailure[] = attempt.metrics.filter(failed).map((metric) => ({ metric }));
  for (const [index, turn] of (attempt.turns ?? []).entries()) {
    for (const metric of turn.metrics) if (failed(metric)) failures.push({ metric, turn: index + 1 });
  }
  return failures;
}

/**
 * The failed metrics to show for a case: those of its first attempt that ran and failed (with
 * repeats, one attempt's metrics tell the story; the others are in the JSON report).
 */
export function failuresOfCase(caseReport: CaseReport): MetricFailure[] {
  const failedAttempt = caseReport.attempts.find((attempt) => !attempt.passed && attempt.error === undefined);
  if (failedAttempt) return failuresOfAttempt(failedAttempt);
  if (caseReport.attempts.length === 0) return failuresOfAttempt(caseReport);
  return [];
}

/** One failed metric in words: `bleu 0.41 < 0.6`, `turn 2 tone failed`, `faithfulness could not run: ...`. */
export function describeFailure(failure: MetricFailure): string {
  const { metric } = failure;
  const name = failure.turn === undefined ? metric.name : `turn ${failure.turn} ${metric.name}`;
  if (metric.error !== undefined) return `${name} could not run: ${firstLine(metric.error)}`;
  // An attempt stopped at its limits: the reason says which limit, and what it reached.
  if (metric.type === 'limits') return metric.reason;
  if (metric.threshold === undefined) return `${name} failed`;
  return `${name} ${formatScore(metric.score)} < ${formatScore(metric.threshold)}`;
}

/**
 * Why a case did not pass, in one line: the run error of an errored case; otherwise the attempt
 * count (with repeats), then the failed metrics (each prefixed by `metricPrefix`) or attempt errors.
 */
export function describeCaseProblem(caseReport: CaseReport, metricPrefix = ''): string {
  if (caseReport.interrupted) return 'the run was interrupted before this case finished';
  if (caseReport.errored) return firstLine(caseReport.error ?? 'the agent run failed');
  const parts: string[] = [];
  const repeats = describeRepeats(caseReport);
  if (repeats) parts.push(repeats);
  const failures = failuresOfCase(caseReport);
  parts.push(...failures.map((failure) => `${metricPrefix}${describeFailure(failure)}`));
  if (failures.length === 0) {
    const errored = caseReport.attempts.find((attempt) => attempt.error !== undefined);
    if (errored) parts.push(`attempt ${errored.attempt} errored: ${firstLine(errored.error ?? '')}`);
  }
  return parts.length > 0 ? parts.join('; ') : 'failed';
}

/** The first line of a possibly multi-line message. */
export function firstLine(text: string): string {
  const trimmed = text.trim();
  const line = trimmed.split(/\r?\n/, 1)[0] ?? '';
  return line.length < trimmed.length ? `${line.trimEnd()} …` : line;
}

/** Wall time of all attempts of a case (the case's own duration when it has no attempts). */
export function caseDuration(caseReport: Pick<CaseReport, 'attempts' | 'duration_ms'>): number {
  if (caseReport.attempts.length === 0) return caseReport.duration_ms;
  return caseReport.attempts.reduce((total, attempt) => total + attempt.duration_ms, 0);
}
