import { caseIntervalOf, countAttempts } from './case-state.js';
import { formatPercent } from './format-units.js';
import type { CaseReport, PassInterval, RunSummary } from './run-report.js';

/** `[20.8%, 93.9%] at 95%`: an interval that names its confidence level. */
export function formatInterval(interval: Pick<PassInterval, 'lower' | 'upper' | 'confidence'>): string {
  return `[${formatPercent(interval.lower)}, ${formatPercent(interval.upper)}] at ${formatPercent(interval.confidence)}`;
}

/**
 * A case's pass rate in words: `2/3 finished attempts passed (66.7%), [20.8%, 93.9%] at 95%`;
 * `1/1 finished attempt passed (one attempt: no interval)`; errored and stopped attempts named.
 */
export function describeCasePassRate(caseReport: CaseReport): string {
  const counts = countAttempts(caseReport.attempts);
  const interval = caseIntervalOf(caseReport, caseReport.pass_interval?.confidence);
  const noun = counts.finished === 1 ? 'finished attempt' : 'finished attempts';
  const rate = counts.finished ? ` (${formatPercent(counts.passed / counts.finished)})` : '';
  const spread = interval
    ? `, ${formatInterval(interval)}`
    : counts.finished === 1
      ? ' (one attempt: no interval)'
      : '';
  const other = [
    ...(counts.errored ? [`${counts.errored} errored`] : []),
    ...(counts.stopped ? [`${counts.stopped} stopped`] : []),
  ];
  return `${counts.passed}/${counts.finished} ${noun} passed${rate}${spread}${other.length ? `; ${other.join(', ')}` : ''}`;
}

/** `2/3 [20.8%, 93.9%]` for the terminal's attempts column; `1/1` for a single attempt. */
export function compactCasePassRate(caseReport: CaseReport): string {
  const counts = countAttempts(caseReport.attempts);
  const interval = caseIntervalOf(caseReport, caseReport.pass_interval?.confidence);
  const errored = counts.errored ? ` +${counts.errored} errored` : '';
  const range = interval ? ` [${formatPercent(interval.lower)}, ${formatPercent(interval.upper)}]` : '';
  return `${counts.passed}/${counts.finished}${range}${errored}`;
}

/**
 * The suite's attempts in words: `7/9 finished attempts passed, [45.3%, 93.7%] at 95%` (the
 * interval clustered by case); undefined for reports without attempt figures.
 */
export function describeSuiteAttempts(summary: RunSummary): string | undefined {
  const attempts = summary.attempts;
  if (!attempts || attempts.finished + attempts.errored + attempts.stopped === 0) return undefined;
  const noun = attempts.finished === 1 ? 'finished attempt' : 'finished attempts';
  const interval = attempts.pass_interval
    ? `, ${formatInterval(attempts.pass_interval)}`
    : attempts.finished === 1
      ? ' (one attempt: no interval)'
      : '';
  return `${attempts.passed}/${attempts.finished} ${noun} passed${interval}`;
}
