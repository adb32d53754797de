import {
  caseDuration,
  caseStatus,
  describeFailure,
  failuresOfCase,
  firstLine,
  isFlaky,
  STATUS_LABEL,
} from './case-status.js';
import { compactCasePassRate, describeSuiteAttempts } from './format-interval.js';
import { describeRunCost, formatDuration, formatPercent, formatScore, formatTokens } from './format-units.js';
import { createReportStyle } from './report-style.js';
import type { CaseReport, RunReport, RunSummary } from './run-report.js';

/** How the summary is drawn. */
export interface RenderSummaryOptions {
  /** ANSI colours (decide with terminalCapabilities). */
  color: boolean;
  /** Metrics shown per case before `+N more`. Default 3. */
  maxMetrics?: number;
}

const NAME_WIDTH = 40;
const METRICS_WIDTH = 64;

/**
 * The end-of-run table: one row per case (name, PASS/FAIL/ERROR, key metrics with scores, with
 * failing ones first, and duration), then the totals line.
 */
export function renderSummary(report: RunReport, options: RenderSummaryOptions): string {
  const style = createReportStyle(options.color);
  const repeated = report.cases.some((caseReport) => caseReport.attempts.length > 1);
  const rows = report.cases.map((caseReport) => ({
    name: truncate(caseReport.name, NAME_WIDTH),
    status: caseStatus(caseReport),
    attempts: repeated ? compactRepeats(caseReport) : '',
    metrics: truncate(keyMetrics(caseReport, options.maxMetrics ?? 3), METRICS_WIDTH),
    duration: formatDuration(caseDuration(caseReport)),
  }));
  const width = {
    name: Math.max(4, ...rows.map((row) => row.name.length)),
    status: Math.max(6, ...rows.map((row) => STATUS_LABEL[row.status].length)),
    attempts: Math.max(8, ...rows.map((row) => row.attempts.length)),
    metrics: Math.max(7, ...rows.map((row) => row.metrics.length)),
    duration: Math.max(8, ...rows.map((row) => row.duration.length)),
  };
  const attemptsColumn = (text: string) => (repeated ? `${text.padEnd(width.attempts)}  ` : '');
  const lines: string[] = [];
  if (rows.length > 0) {
    const header = `${'Case'.padEnd(width.name)}  ${'Status'.padEnd(width.status)}  ${attemptsColumn('Attempts')}${'Metrics'.padEnd(width.metrics)}  ${'Duration'.padStart(width.duration)}`;
    lines.push(style.bold(header));
    for (const row of rows) {
      const status = style.status(row.status, STATUS_LABEL[row.status].padEnd(width.status));
      lines.push(
        `${row.name.padEnd(width.name)}  ${status}  ${attemptsColumn(row.attempts)}${row.metrics.padEnd(width.metrics)}  ${row.duration.padStart(width.duration)}`,
      );
    }
    lines.push('');
  }
  lines.push(renderTotals(report.summary, options));
  return `${lines.join('\n')}\n`;
}

/**
 * `2/3 [20.8%, 93.9%] pass@3 1 pass^3 0 flaky` for a repeated case (passed/finished attempts and
 * the interval at the run's confidence), `1/1 no interval` for a single attempt.
 */
function compactRepeats(caseReport: CaseReport): string {
  const total = caseReport.attempts.length;
  const rate = compactCasePassRate(caseReport);
  if (total <= 1) return `${rate} no interval`;
  const k = caseReport.finished_attempts ?? total;
  const flaky = isFlaky(caseReport) ? ' flaky' : '';
  return `${rate} pass@${k} ${formatScore(caseReport.pass_at_k)} pass^${k} ${formatScore(caseReport.pass_pow_k)}${flaky}`;
}

/** `3 cases: 1 passed, 1 failed, 1 errored · pass rate 33.3% · 12.3 s · 4,567 tokens · $0.0123` */
export function renderTotals(summary: RunSummary, options: { color: boolean }): string {
  const style = createReportStyle(options.color);
  const noun = summary.total === 1 ? 'case' : 'cases';
  const failed = `${summary.failed} failed`;
  const errored = `${summary.errored} errored`;
  const counts = [
    style.green(`${summary.passed} passed`),
    summary.failed > 0 ? style.red(failed) : failed,
    summary.errored > 0 ? style.yellow(errored) : errored,
    ...(summary.interrupted ? [style.yellow(`${summary.interrupted} stopped by the interruption`)] : []),
  ].join(', ');
  const attempts = describeSuiteAttempts(summary);
  const totals = [
    `pass rate ${formatPercent(summary.pass_rate)}`,
    ...(attempts ? [attempts] : []),
    formatDuration(summary.duration_ms),
    `${formatTokens(summary.token_usage.total_tokens)} tokens`,
    describeRunCost(summary),
  ];
  return `${summary.total} ${noun}: ${counts} · ${totals.join(' · ')}`;
}

/** The metrics column: the run error of an errored case, else failing metrics first, then the rest. */
function keyMetrics(caseReport: CaseReport, maxMetrics: number): string {
  if (caseReport.interrupted) return 'the run was interrupted before this case finished';
  if (caseReport.errored) return firstLine(caseReport.error ?? 'the agent run failed');
  const failures = failuresOfCase(caseReport);
  const failingNames = new Set(failures.map((failure) => failure.metric.name));
  const parts = [
    ...failures.map(describeFailure),
    ...caseReport.metrics
      .filter((metric) => metric.passed && !failingNames.has(metric.name))
      .map((metric) => `${metric.name} ${formatScore(metric.score)}`),
  ];
  const shown = parts.slice(0, maxMetrics);
  if (parts.length > maxMetrics) shown.push(`+${parts.length - maxMetrics} more`);
  return shown.join(', ');
}

function truncate(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}
