import { STATUS_LABEL } from './case-status.js';
import type { CaseChange, CaseComparison, MetricComparison, RunComparison } from './compare-runs.js';
import type { ChangeInterval } from './compare-statistics.js';
import { formatCost, formatDelta, formatPercent, formatScore } from './format-units.js';
import { createReportStyle } from './report-style.js';

const CHANGE_LABEL: Record<CaseChange, string> = {
  regressed: 'REGRESSED',
  improved: 'IMPROVED',
  unchanged: 'NO CHANGE',
  new: 'NEW',
  removed: 'REMOVED',
  'not-compared': 'NOT COMPARED',
};

/** The words of a change in running text. */
export const CHANGE_WORDS: Record<CaseChange, string> = {
  regressed: 'regressed',
  improved: 'improved',
  unchanged: 'no significant change',
  new: 'new',
  removed: 'removed',
  'not-compared': 'not compared',
};

/** The counts line: `1 regressed · 2 improved · 5 no significant change · 0 new · 0 removed`. */
export function describeChangeCounts(comparison: RunComparison): string {
  const { counts } = comparison;
  const notCompared = counts['not-compared'] ? ` · ${counts['not-compared']} not compared` : '';
  return `${counts.regressed} regressed · ${counts.improved} improved · ${counts.unchanged} no significant change · ${counts.new} new · ${counts.removed} removed${notCompared}`;
}

/** `pass rate 80% → 60%` over the cases both runs finished. */
export function describePassRateMove(comparison: RunComparison): string {
  return `pass rate ${formatPercent(comparison.baselinePassRate)} → ${formatPercent(comparison.currentPassRate)} on the ${comparison.compared} compared case${comparison.compared === 1 ? '' : 's'}`;
}

/** `−33.3 points [−80, +10] at 95%`: a change of pass rate in percentage points. */
export function formatChange(interval: ChangeInterval): string {
  const points = (value: number) => {
    const rounded = Math.round(value * 1000) / 10;
    return rounded > 0 ? `+${rounded}` : rounded === 0 ? '0' : `−${Math.abs(rounded)}`;
  };
  return `${points(interval.estimate)} points [${points(interval.lower)}, ${points(interval.upper)}] at ${formatPercent(interval.confidence)}`;
}

/**
 * The suite's change in words: `attempts 90% → 60%: −30 points [−45, −12] at 95% (paired bootstrap,
 * seed 20) · McNemar exact p = 0.031 · 0 wins, 3 losses, 7 ties · regressed`.
 */
export function describeSuiteChange(comparison: RunComparison): string {
  const { suite } = comparison;
  const parts = [
    `attempts ${formatPercent(suite.baselinePassRate)} → ${formatPercent(suite.currentPassRate)}: ${formatChange(suite.delta)} (paired bootstrap over cases, seed ${suite.delta.seed})`,
  ];
  if (suite.mcnemar) parts.push(`McNemar exact p = ${formatScore(suite.mcnemar.pValue)}`);
  parts.push(
    `${suite.wins} win${suite.wins === 1 ? '' : 's'}, ${suite.losses} loss${suite.losses === 1 ? '' : 'es'}, ${suite.ties} tie${suite.ties === 1 ? '' : 's'}`,
  );
  const basis = {
    mcnemar: 'by McNemar',
    bootstrap: 'by the bootstrap interval',
    'pooled-newcombe': `by the pooled attempts (under 10 cases)`,
  }[suite.verdictBasis];
  parts.push(
    `suite: ${suite.verdict === 'no-significant-change' ? 'no significant change' : suite.verdict} ${basis}`,
  );
  return parts.join(' · ');
}

/** `2/3 → 0/3, −66.7 points [−95, −10] at 95%`, or why the case was not compared. */
export function describeCaseChange(entry: CaseComparison): string {
  if (entry.notComparedReason) return entry.notComparedReason;
  const stats = entry.statistics;
  if (!stats) return describeStatusMove(entry);
  const significance = entry.change === 'unchanged' && stats.delta.estimate !== 0 ? ': not significant' : '';
  return `${stats.baseline.passed}/${stats.baseline.finished} → ${stats.current.passed}/${stats.current.finished}, ${formatChange(stats.delta)}${significance}`;
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
 * What a reader must know before trusting the figures, said first: which cases were compared
 * (only those both runs finished), how the runs differ (another agent, model, repeats,
 * selection), the baseline cases this run did not select, and what chance alone would flag.
 */
export function describeContext(comparison: RunComparison): string[] {
  const lines: string[] = [];
  const left = comparison.cases.filter((entry) => entry.change === 'not-compared');
  const outside = comparison.notSelected.length + comparison.counts.new + comparison.counts.removed;
  if (left.length > 0 || outside > 0) {
    const reasons = left.slice(0, 5).map((entry) => `${entry.name}: ${entry.notComparedReason}`);
    const more = left.length > 5 ? `, and ${left.length - 5} more` : '';
    lines.push(
      `compared only on the ${comparison.compared} case${comparison.compared === 1 ? '' : 's'} both runs finished${left.length ? ` (left out: ${reasons.join('; ')}${more})` : ''}`,
    );
  }
  if (comparison.differences.length > 0) lines.push(`the runs differ: ${comparison.differences.join('; ')}`);
  const skipped = comparison.notSelected.length;
  if (skipped > 0) {
    const names = comparison.notSelected.slice(0, 5).join(', ');
    const more = skipped > 5 ? ` and ${skipped - 5} more` : '';
    lines.push(
      `${skipped} baseline case${skipped === 1 ? '' : 's'} not selected by this run (${names}${more}): left out of the comparison`,
    );
  }
  const { chance } = comparison.suite;
  if (comparison.compared >= 10) {
    lines.push(
      `over ${comparison.compared} cases, chance alone flags ${formatScore(chance.expectedFalseRegressions)} "regressions" on average at ${formatPercent(comparison.confidence)} (Holm-adjusted p-values are in the JSON report)`,
    );
  }
  return lines;
}

/** The cases worth showing: every change, cases not compared, and unchanged cases that moved. */
export function notableCases(comparison: RunComparison): CaseComparison[] {
  return comparison.cases.filter(
    (entry) =>
      entry.change !== 'unchanged' ||
      describeMetricFlips(entry) !== '' ||
      (entry.statistics !== undefined && entry.statistics.delta.estimate !== 0),
  );
}

/** `$0.0100 → $0.0150` with its change, `+$0.0050 (+50.0%)`; `unknown` on a side without a cost. */
function costMove(before: number | null, after: number | null): string {
  const move = `${formatCost(before)} → ${formatCost(after)}`;
  if (before === null || after === null) return move;
  const delta = after - before;
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  const relative = before > 0 ? `, ${sign}${formatPercent(Math.abs(delta) / before)}` : '';
  return `${move} (${sign}${formatCost(Math.abs(delta))}${relative})`;
}

/** `cost of the 12 compared cases $0.0120 → $0.0150 (+$0.0030, +25.0%); per passed case …` */
export function describeCostChange(comparison: RunComparison): string {
  const { cost } = comparison;
  const cases = `${comparison.compared} compared case${comparison.compared === 1 ? '' : 's'}`;
  const perPassed =
    cost.baselinePerPassed !== null || cost.currentPerPassed !== null
      ? `; per passed case ${costMove(cost.baselinePerPassed, cost.currentPerPassed)}`
      : '';
  return `cost of the ${cases} ${costMove(cost.baseline, cost.current)}${perPassed}`;
}

/** The comparison for the terminal: what was compared first, the suite's change, then the cases. */
export function renderComparison(comparison: RunComparison, options: { color: boolean }): string {
  const style = createReportStyle(options.color);
  const colour: Record<CaseChange, (text: string) => string> = {
    regressed: style.red,
    improved: style.green,
    unchanged: style.dim,
    new: (text) => text,
    removed: style.dim,
    'not-compared': style.yellow,
  };
  const lines = [
    `Compared with baseline run ${comparison.baselineRunId}:`,
    ...describeContext(comparison).map((line) => `  ${style.yellow('note')} ${line}`),
    `  ${describeChangeCounts(comparison)} · ${describePassRateMove(comparison)}`,
    `  ${describeSuiteChange(comparison)}`,
    ...(comparison.compared > 0 ? [`  ${describeCostChange(comparison)}`] : []),
  ];
  const cases = notableCases(comparison);
  const nameWidth = Math.min(40, Math.max(0, ...cases.map((entry) => entry.name.length)));
  const moveWidth = Math.max(0, ...cases.map((entry) => describeCaseChange(entry).length));
  for (const entry of cases) {
    const label = colour[entry.change](CHANGE_LABEL[entry.change].padEnd(12));
    const flips = describeMetricFlips(entry);
    const line = `  ${label}  ${entry.name.padEnd(nameWidth)}  ${describeCaseChange(entry).padEnd(moveWidth)}  ${flips}`;
    lines.push(line.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}
