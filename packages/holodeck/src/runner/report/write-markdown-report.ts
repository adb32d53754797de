import { isFinished } from './case-state.js';
import {
  type CaseStatus,
  caseDuration,
  caseStatus,
  describeCaseProblem,
  describeRepeats,
  failuresOfCase,
  STATUS_LABEL,
} from './case-status.js';
import type { CaseComparison, RunComparison } from './compare-runs.js';
import { describeSuiteAttempts } from './format-interval.js';
import { describeRunCost, formatDuration, formatPercent, formatScore, formatTokens } from './format-units.js';
import { markdownCell, markdownCode, markdownTable } from './markdown-text.js';
import {
  CHANGE_WORDS,
  describeCaseChange,
  describeChangeCounts,
  describeContext,
  describeCostChange,
  describeMetricFlips,
  describePassRateMove,
  describeSuiteChange,
  notableCases,
} from './render-comparison.js';
import type { CaseReport, RunReport } from './run-report.js';

const STATUS_ICON: Record<CaseStatus, string> = { pass: '✅', fail: '❌', error: '💥', stopped: '⏹️' };

/**
 * A Markdown summary for a pull-request comment: a headline, the failing and errored cases with
 * their failing metrics, changes against a baseline (when given), and every case in a
 * collapsible `<details>`. Text from the run (names, reasons, errors) is escaped.
 */
export function writeMarkdownReport(given: RunReport, comparison?: RunComparison): string {
  // A matrix run lists each case once per variant, named `<case> [<variant>]`.
  const report = given.matrix
    ? {
        ...given,
        cases: given.cases.map((caseReport) => ({
          ...caseReport,
          name: caseReport.variant ? `${caseReport.name} [${caseReport.variant}]` : caseReport.name,
        })),
      }
    : given;
  const sections = [headline(report)];
  const problems = report.cases.filter(
    (caseReport) => (!caseReport.passed || caseReport.errored) && !caseReport.interrupted,
  );
  if (problems.length > 0) sections.push(problemSection(problems));
  if (comparison) sections.push(comparisonSection(comparison));
  if (report.cases.length > 0) sections.push(allCasesSection(report.cases));
  return `${sections.join('\n\n')}\n`;
}

function headline(report: RunReport): string {
  const { summary, agent } = report;
  const ok = summary.total > 0 && summary.failed === 0 && summary.errored === 0;
  const icon = report.interrupted ? '⏹️' : summary.total === 0 ? '⚠️' : ok ? '✅' : '❌';
  const verdict = report.interrupted
    ? 'interrupted'
    : summary.total === 0
      ? 'no test cases ran'
      : ok
        ? 'passed'
        : 'failed';
  const stopped = summary.interrupted ? ` · ${summary.interrupted} stopped by the interruption` : '';
  const counts = `**${summary.passed}/${summary.total} passed** · ${summary.failed} failed · ${summary.errored} errored${stopped}`;
  const attempts = describeSuiteAttempts(summary);
  const totals = [
    `pass rate ${formatPercent(summary.pass_rate)}`,
    ...(attempts ? [markdownCell(attempts)] : []),
    formatDuration(summary.duration_ms),
    `${formatTokens(summary.token_usage.total_tokens)} tokens`,
    markdownCell(describeRunCost(summary)),
  ].join(' · ');
  const about = `<sub>run ${markdownCode(report.run_id)} · model ${markdownCode(agent.model)} (${markdownCell(agent.provider)}) · ${markdownCell(agent.file)}</sub>`;
  return [
    `## ${icon} HoloDeck: ${markdownCell(agent.name)} ${verdict}`,
    '',
    `${counts} · ${totals}`,
    '',
    about,
  ].join('\n');
}

function problemSection(cases: readonly CaseReport[]): string {
  const rows = cases.map((caseReport) => {
    const status = caseStatus(caseReport);
    return [
      markdownCell(caseReport.name),
      statusCell(status),
      markdownCell(describeCaseProblem(caseReport), 300),
    ];
  });
  const reasons = cases.flatMap((caseReport) =>
    failuresOfCase(caseReport).map(
      (failure) =>
        `- **${markdownCell(caseReport.name)}** · ${markdownCell(failure.metric.name)}: ${markdownCell(failure.metric.error ?? failure.metric.reason, 300)}`,
    ),
  );
  const title = `### Failing cases (${cases.length})`;
  const table = markdownTable(['Case', 'Status', 'Failing metrics or error'], rows);
  const why =
    reasons.length > 0
      ? ['', '<details>', '<summary>Why the metrics failed</summary>', '', ...reasons, '', '</details>']
      : [];
  return [title, '', ...table, ...why].join('\n');
}

function comparisonSection(comparison: RunComparison): string {
  const title = `### Compared with baseline ${markdownCode(comparison.baselineRunId)}`;
  const changeCounts = describeChangeCounts(comparison);
  const emphasised =
    comparison.counts.regressed > 0 ? changeCounts.replace(/^(\d+ regressed)/, '**$1**') : changeCounts;
  const cost = comparison.compared > 0 ? `\n\n${markdownCell(describeCostChange(comparison), 600)}` : '';
  const counts = `${emphasised} · ${describePassRateMove(comparison)}\n\n${markdownCell(describeSuiteChange(comparison), 600)}${cost}`;
  const context = describeContext(comparison).flatMap((line) => [`> ${markdownCell(line, 600)}`, '']);
  const notable = notableCases(comparison);
  if (notable.length === 0) return [title, '', ...context, counts, '', 'No case changed.'].join('\n');
  const rows = notable.map((entry) => [
    markdownCell(entry.name),
    changeCell(entry),
    markdownCell(describeCaseChange(entry), 300),
    markdownCell(describeMetricFlips(entry), 300),
  ]);
  return [
    title,
    '',
    ...context,
    counts,
    '',
    ...markdownTable(['Case', 'Change', 'Pass rate', 'Metrics'], rows),
  ].join('\n');
}

function allCasesSection(cases: readonly CaseReport[]): string {
  const repeated = cases.some((caseReport) => caseReport.attempts.length > 1);
  const rows = cases.map((caseReport) => [
    markdownCell(caseReport.name),
    statusCell(caseStatus(caseReport)),
    ...(repeated ? [markdownCell(describeRepeats(caseReport) ?? '1 attempt: no interval')] : []),
    markdownCell(metricsSummary(caseReport), 300),
    formatDuration(caseDuration(caseReport)),
  ]);
  const header = ['Case', 'Status', ...(repeated ? ['Attempts'] : []), 'Metrics', 'Duration'];
  return [
    '<details>',
    `<summary>All ${cases.length} cases</summary>`,
    '',
    ...markdownTable(header, rows),
    '',
    '</details>',
  ].join('\n');
}

function statusCell(status: CaseStatus): string {
  return `${STATUS_ICON[status]} ${STATUS_LABEL[status]}`;
}

function changeCell(entry: CaseComparison): string {
  const icon = {
    regressed: '🔻',
    improved: '🔺',
    unchanged: '➖',
    new: '🆕',
    removed: '🗑️',
    'not-compared': '⚠️',
  }[entry.change];
  return `${icon} ${CHANGE_WORDS[entry.change]}`;
}

/**
 * `✓ bleu 0.82, ✗ tone 0.4` (scores of the first attempt), or the run error of an errored case. With
 * repeats a metric is ✓ only when it passed in every attempt that ran, else `✗ tone 0.4 (2/3)`.
 */
function metricsSummary(caseReport: CaseReport): string {
  if (caseReport.interrupted) return 'the run was interrupted before this case finished';
  if (caseReport.errored) return caseReport.error ?? '';
  const ran = caseReport.attempts.filter(isFinished);
  return caseReport.metrics
    .map((metric) => {
      const outcomes = ran.flatMap((attempt) =>
        attempt.metrics.filter((other) => other.name === metric.name),
      );
      const passes = outcomes.filter((outcome) => outcome.passed).length;
      const all = outcomes.length === 0 ? metric.passed : passes === outcomes.length;
      const count = outcomes.length > 1 && !all ? ` (${passes}/${outcomes.length})` : '';
      return `${all ? '✓' : '✗'} ${metric.name} ${formatScore(metric.score)}${count}`;
    })
    .join(', ');
}
