import type { GateResult } from '../gate/evaluate-gate.js';
import { caseStateOf } from './case-state.js';
import { describeCaseProblem } from './case-status.js';
import type { RunComparison } from './compare-runs.js';
import { describeSuiteAttempts } from './format-interval.js';
import { formatCost, formatPercent } from './format-units.js';
import { markdownCell, markdownTable } from './markdown-text.js';
import { describeCaseChange, describeSuiteChange } from './render-comparison.js';
import type { RunReport } from './run-report.js';

/**
 * The CI summary (GitHub's `$GITHUB_STEP_SUMMARY`, or `--ci-summary FILE`): the suite's figures
 * with their interval, the gate's rules, the failed, errored and regressed cases with why, and
 * the cost. Text from the run is escaped (markdownCell).
 */
export function writeCiSummary(report: RunReport, comparison?: RunComparison, gate?: GateResult): string {
  const { summary } = report;
  const ok = summary.failed === 0 && summary.errored === 0 && !report.interrupted && (gate?.held ?? true);
  const lines = [
    `## ${ok ? '✅' : '❌'} HoloDeck: ${markdownCell(report.agent.name)}`,
    '',
    `**${summary.passed}/${summary.total} passed** · ${summary.failed} failed · ${summary.errored} errored${summary.interrupted ? ` · ${summary.interrupted} stopped` : ''} · pass rate ${formatPercent(summary.pass_rate)}`,
  ];
  const attempts = describeSuiteAttempts(summary);
  if (attempts) lines.push('', markdownCell(attempts));
  const perPassed =
    summary.cost_usd !== null && summary.passed > 0 ? summary.cost_usd / summary.passed : null;
  lines.push(
    '',
    summary.cost_usd === null
      ? markdownCell(`Cost unknown${summary.cost_unknown_reason ? ` (${summary.cost_unknown_reason})` : ''}`)
      : `Cost ${formatCost(summary.cost_usd)}${perPassed !== null ? ` · ${formatCost(perPassed)} per passed case` : ''}`,
  );
  const calls = summary.judge_calls;
  if (calls && summary.judge_cost_usd !== undefined && calls.billed + calls.cached > 0) {
    const judge =
      summary.judge_cost_usd === null
        ? `Judge cost unknown${summary.judge_cost_unknown_reason ? ` (${summary.judge_cost_unknown_reason})` : ''}`
        : `Judge ${formatCost(summary.judge_cost_usd)}`;
    lines.push(
      '',
      markdownCell(
        `${judge} (${calls.billed} billed, ${calls.cached} cached calls) · Total ${formatCost(summary.total_cost_usd ?? null)}`,
      ),
    );
  }
  if (gate) {
    lines.push('', `### Gate: ${gate.held ? 'held' : 'broken'}`, '');
    lines.push(
      ...markdownTable(
        ['Rule', 'Result', 'Broken by'],
        gate.rules.map((rule) => [
          markdownCell(rule.rule),
          rule.held ? '✅ held' : '❌ broken',
          markdownCell(rule.broken_by.join(', '), 300),
        ]),
      ),
    );
  }
  const problems = report.cases.filter((entry) => !entry.passed && caseStateOf(entry) !== 'stopped');
  if (problems.length) {
    lines.push('', `### Failed and errored cases (${problems.length})`, '');
    lines.push(
      ...markdownTable(
        ['Case', 'State', 'Why'],
        problems.map((entry) => [
          markdownCell(entry.name),
          caseStateOf(entry),
          markdownCell(describeCaseProblem(entry), 300),
        ]),
      ),
    );
  }
  if (comparison) {
    lines.push(
      '',
      `### Compared with \`${markdownCell(comparison.baselineRunId)}\``,
      '',
      markdownCell(describeSuiteChange(comparison), 600),
    );
    const regressed = comparison.cases.filter((entry) => entry.change === 'regressed');
    if (regressed.length) {
      lines.push('');
      lines.push(
        ...markdownTable(
          ['Regressed case', 'Change'],
          regressed.map((entry) => [markdownCell(entry.name), markdownCell(describeCaseChange(entry), 300)]),
        ),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** GitHub's escaping of a workflow command's message: %, CR and LF. */
export function escapeCommandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** GitHub's escaping of a workflow command's property value: the data's, plus ':' and ','. */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * `::error file=agent.yaml,line=12,title=HoloDeck: refund-policy::why` for each failed, errored or
 * regressed case, pointing at its line in agent.yaml or its test_cases_file (paths relative to
 * `root`, the workspace, when inside it).
 */
export function githubAnnotations(
  report: RunReport,
  comparison: RunComparison | undefined,
  root: string,
): string[] {
  const regressed = new Map(
    (comparison?.cases ?? [])
      .filter((entry) => entry.change === 'regressed')
      .map((entry) => [entry.name, entry]),
  );
  const lines: string[] = [];
  for (const entry of report.cases) {
    const failed = !entry.passed && caseStateOf(entry) !== 'stopped';
    const regression = regressed.get(entry.name);
    if (!failed && !regression) continue;
    const message = [
      ...(failed ? [`${caseStateOf(entry)}: ${describeCaseProblem(entry)}`] : []),
      ...(regression ? [`regressed: ${describeCaseChange(regression)}`] : []),
    ].join('\n');
    const properties = [
      ...(entry.source
        ? [`file=${escapeCommandProperty(relativeTo(root, entry.source.file))}`, `line=${entry.source.line}`]
        : []),
      `title=${escapeCommandProperty(`HoloDeck: ${entry.name}`)}`,
    ];
    lines.push(`::error ${properties.join(',')}::${escapeCommandData(message)}`);
  }
  return lines;
}

function relativeTo(root: string, file: string): string {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return file.startsWith(prefix) ? file.slice(prefix.length) : file;
}
