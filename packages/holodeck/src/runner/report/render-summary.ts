import {
  caseDuration,
  caseStatus,
  describeFailure,
  failuresOfCase,
  firstLine,
  STATUS_LABEL,
} from './case-status.js';
import { formatCost, formatDuration, formatPercent, formatScore, formatTokens } from './format-units.js';
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
  const rows = report.cases.map((caseReport) => ({
    name: truncate(caseReport.name, NAME_WIDTH),
    status: caseStatus(caseReport),
    metrics: truncate(keyMetrics(caseReport, options.maxMetrics ?? 3), METRICS_WIDTH),
    duration: formatDuration(caseDuration(caseReport)),
  }));
  const width = {
    name: Math.max(4, ...rows.map((row) => row.name.length)),
    metrics: Math.max(7, ...rows.map((row) => row.metrics.length)),
    duration: Math.max(8, ...rows.map((row) => row.duration.length)),
  };
  const lines: string[] = [];
  if (rows.length > 0) {
    const header = `${'Case'.padEnd(width.name)}  Status  ${'Metrics'.padEnd(width.metrics)}  ${'Duration'.padStart(width.duration)}`;
    lines.push(style.bold(header));
    for (const row of rows) {
      const status = style.status(row.status, STATUS_LABEL[row.status].padEnd(6));
      lines.push(
        `${row.name.padEnd(width.name)}  ${status}  ${row.metrics.padEnd(width.metrics)}  ${row.duration.padStart(width.duration)}`,
      );
    }
    lines.push('');
  }
  lines.push(renderTotals(report.summary, options));
  return `${lines.join('\n')}\n`;
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
  ].join(', ');
  const totals = [
    `pass rate ${formatPercent(summary.pass_rate)}`,
    formatDuration(summary.duration_ms),
    `${formatTokens(summary.token_usage.total_tokens)} tokens`,
    formatCost(summary.cost_usd),
  ];
  return `${summary.total} ${noun}: ${counts} · ${totals.join(' · ')}`;
}

/** The metrics column: the run error of an errored case, else failing metrics first, then the rest. */
function keyMetrics(caseReport: CaseReport, maxMetrics: number): string {
  if (caseReport.errored) return firstLine(caseReport.error ?? 'the agent run failed');
  const failures = failuresOfCase(caseReport);
  const failingNames = new Set(failures.map((failure) => failure.metric.name));
  const parts = [
    ...failures.map(describeFailure),
    ...caseReport.metrics
      .filter((metric) => metric.passed && !failingNames.has(metric.name))
      .map((metric) => `${metric.name} ${formatScore(metric.score)}`),
  ];
  const attempts = caseReport.attempts.length;
  if (!caseReport.passed && attempts > 1) {
    const passed = caseReport.attempts.filter((attempt) => attempt.passed).length;
    parts.unshift(`${passed}/${attempts} attempts passed`);
  }
  const shown = parts.slice(0, maxMetrics);
  if (parts.length > maxMetrics) shown.push(`+${parts.length - maxMetrics} more`);
  return shown.join(', ');
}

function truncate(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}
