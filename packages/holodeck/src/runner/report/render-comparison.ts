import { STATUS_LABEL } from './case-status.js';
import type { CaseChange, CaseComparison, MetricComparison, RunComparison } from './compare-runs.js';
import { formatDelta, formatPercent, formatScore } from './format-units.js';
import { createReportStyle } from './report-style.js';

const CHANGE_LABEL: Record<CaseChange, string> = {
  regressed: 'REGRESSED',
  improved: 'IMPROVED',
  unchanged: 'UNCHANGED',
  new: 'NEW',
  removed: 'REMOVED',
};

/** The counts line: `1 regressed · 2 improved · 5 unchanged · 0 new · 0 removed`. */
export function describeChangeCounts(comparison: RunComparison): string {
  const { counts } = comparison;
  return `${counts.regressed} regressed · ${counts.improved} improved · ${counts.unchanged} unchanged · ${counts.new} new · ${counts.removed} removed`;
}

/** `pass rate 80% → 60%`. */
export function describePassRateMove(comparison: RunComparison): string {
  return `pass rate ${formatPercent(comparison.baselinePassRate)} → ${formatPercent(comparison.currentPassRate)}`;
}

/** `PASS → FAIL`, `new: PASS`, `was: FAIL`. */
export function describeStatusMove(entry: CaseComparison): string {
  const before = entry.baselineStatus && STATUS_LABEL[entry.baselineStatus];
  const after = entry.currentStatus && STATUS_LABEL[entry.currentStatus];
  if (before === undefined) return `new: ${after ?? '?'}`;
  if (after === undefined) return `was: ${before}`;
  return `${before} → ${after}`;
}

/** `bleu 0.72 → 0.41 (-0.31)`; for a metric in one run only, its one score. */
export function describeMetricMove(metric: MetricComparison): string {
  if (metric.baselineScore === undefined || metric.currentScore === undefined || metric.delta === undefined) {
    return `${metric.name} ${formatScore(metric.currentScore ?? metric.baselineScore ?? 0)}`;
  }
  const scores = `${formatScore(metric.baselineScore)} → ${formatScore(metric.currentScore)}`;
  return `${metric.name} ${scores} (${formatDelta(metric.delta)})`;
}

/** `newly failing: bleu 0.72 → 0.41 (-0.31); newly passing: ...`, or '' when no metric flipped. */
export function describeMetricFlips(entry: CaseComparison): string {
  const failing = entry.metrics.filter((metric) => metric.change === 'newly-failing').map(describeMetricMove);
  const passing = entry.metrics.filter((metric) => metric.change === 'newly-passing').map(describeMetricMove);
  const parts: string[] = [];
  if (failing.length > 0) parts.push(`newly failing: ${failing.join(', ')}`);
  if (passing.length > 0) parts.push(`newly passing: ${passing.join(', ')}`);
  return parts.join('; ');
}

/**
 * What a reader must know before trusting the counts: how the runs differ (another agent, model,
 * repeats, selection), and the baseline cases this run did not select (left out, not removed).
 */
export function describeContext(comparison: RunComparison): string[] {
  const lines: string[] = [];
  if (comparison.differences.length > 0) lines.push(`the runs differ: ${comparison.differences.join('; ')}`);
  const skipped = comparison.notSelected.length;
  if (skipped > 0) {
    const names = comparison.notSelected.slice(0, 5).join(', ');
    const more = skipped > 5 ? ` and ${skipped - 5} more` : '';
    lines.push(
      `${skipped} baseline case${skipped === 1 ? '' : 's'} not selected by this run (${names}${more}): left out of the comparison`,
    );
  }
  return lines;
}

/** The cases worth showing: every change, and unchanged cases where a metric flipped. */
export function notableCases(comparison: RunComparison): CaseComparison[] {
  return comparison.cases.filter(
    (entry) => entry.change !== 'unchanged' || describeMetricFlips(entry) !== '',
  );
}

/** The comparison for the terminal: a header, the counts, then one line per notable case. */
export function renderComparison(comparison: RunComparison, options: { color: boolean }): string {
  const style = createReportStyle(options.color);
  const colour: Record<CaseChange, (text: string) => string> = {
    regressed: style.red,
    improved: style.green,
    unchanged: style.dim,
    new: (text) => text,
    removed: style.dim,
  };
  const lines = [
    `Compared with baseline run ${comparison.baselineRunId}:`,
    ...describeContext(comparison).map((line) => `  ${style.yellow('note')} ${line}`),
    `  ${describeChangeCounts(comparison)} · ${describePassRateMove(comparison)}`,
  ];
  const cases = notableCases(comparison);
  const nameWidth = Math.min(40, Math.max(0, ...cases.map((entry) => entry.name.length)));
  const statusWidth = Math.max(0, ...cases.map((entry) => describeStatusMove(entry).length));
  for (const entry of cases) {
    const label = colour[entry.change](CHANGE_LABEL[entry.change].padEnd(9));
    const flips = describeMetricFlips(entry);
    const line = `  ${label}  ${entry.name.padEnd(nameWidth)}  ${describeStatusMove(entry).padEnd(statusWidth)}  ${flips}`;
    lines.push(line.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}
