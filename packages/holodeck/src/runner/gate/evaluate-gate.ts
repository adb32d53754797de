import type { GateConfig } from '../../config/schema/evaluation-config-schema.js';
import { caseStateOf, countAttempts } from '../report/case-state.js';
import type { RunComparison } from '../report/compare-runs.js';
import { formatCost } from '../report/format-units.js';
import type { RunReport } from '../report/run-report.js';

/** One rule of the gate, held or broken, with the cases that broke it. */
export interface GateRule {
  rule: string;
  held: boolean;
  /** Cases (or figures) that broke it. */
  broken_by: string[];
}

/**
 * A judge metric's calibration as the gate sees it (runner/calibration/calibration-status.ts):
 * anything but ok (never calibrated, stale, below min_kappa) breaks the gate.
 */
export interface JudgeCalibrationState {
  state: 'ok' | 'missing' | 'stale' | 'below';
  message: string;
}

/** The gate's verdict: held only when every rule held. */
export interface GateResult {
  held: boolean;
  rules: GateRule[];
}

/**
 * Checks a run against the gate (§4 of the verdicts design): every required case passes; no case
 * that passed in the approved baseline regressed (significantly: the comparison's interval);
 * no missing cases, duplicate case names, errored attempts, or invalid or missing metric results;
 * the run's whole cost (agent and judge) and the agent's cost per passed case within their limits. Anything that cannot be
 * checked (no approved baseline, an unknown cost under a cost limit) breaks its rule. With judge
 * metrics that set `min_kappa`, each must have a current calibration at or above it (issue 23).
 */
export function evaluateGate(
  report: RunReport,
  gate: GateConfig,
  approved: { comparison: RunComparison } | { error: string },
  judges: readonly JudgeCalibrationState[] = [],
): GateResult {
  const rules: GateRule[] = [];
  const add = (rule: string, brokenBy: string[]) =>
    rules.push({ rule, held: brokenBy.length === 0, broken_by: brokenBy });
  const names = new Set(report.cases.map((entry) => entry.name));
  const required = gate.required === undefined || gate.required === 'all' ? [...names] : gate.required;
  add(
    `every required case passes (${gate.required === undefined || gate.required === 'all' ? 'all' : required.length} required)`,
    required.filter((name) => !report.cases.some((entry) => entry.name === name && entry.passed)),
  );
  if ('error' in approved) add('no regression against the approved baseline', [approved.error]);
  else {
    const regressed = approved.comparison.cases
      .filter((entry) => entry.change === 'regressed' && entry.baselineStatus === 'pass')
      .map((entry) => entry.name);
    add(`no regression against the approved baseline ${approved.comparison.baselineRunId}`, regressed);
  }
  add(
    'no case missing from the run',
    (report.suite_cases ?? []).filter((name) => !names.has(name)),
  );
  const counted = new Map<string, number>();
  for (const entry of report.cases) counted.set(entry.name, (counted.get(entry.name) ?? 0) + 1);
  add(
    'no duplicate case names',
    [...counted].filter(([, times]) => times > 1).map(([name]) => name),
  );
  add(
    'no errored or stopped attempts',
    report.cases
      .filter((entry) => {
        const counts = countAttempts(entry.attempts);
        return (
          counts.errored > 0 ||
          counts.stopped > 0 ||
          caseStateOf(entry) === 'stopped' ||
          caseStateOf(entry) === 'errored'
        );
      })
      .map((entry) => entry.name),
  );
  add(
    'every finished attempt has valid metric results',
    report.cases
      .filter((entry) =>
        entry.attempts.some(
          (attempt) =>
            attempt.error === undefined &&
            (attempt.metrics.length === 0 ||
              attempt.metrics.some(
                (metric) => !Number.isFinite(metric.score) || metric.score < 0 || metric.score > 1,
              )),
        ),
      )
      .map((entry) => entry.name),
  );
  const { summary } = report;
  const cost = summary.cost_usd;
  const unknown = `the cost is unknown${summary.cost_unknown_reason ? ` (${summary.cost_unknown_reason})` : ''}`;
  if (gate.max_cost_usd !== undefined) {
    // The whole run's spend: the agent's calls and the judge's (reports without judge totals: the agent's).
    const total = summary.total_cost_usd === undefined ? cost : summary.total_cost_usd;
    const why =
      cost === null
        ? unknown
        : `the judge's cost is unknown${summary.judge_cost_unknown_reason ? ` (${summary.judge_cost_unknown_reason})` : ''}`;
    add(
      `the run (agent and judge) costs at most ${formatCost(gate.max_cost_usd)}`,
      total === null ? [why] : total > gate.max_cost_usd ? [`it cost ${formatCost(total)}`] : [],
    );
  }
  if (gate.max_cost_per_passed_case_usd !== undefined) {
    const passed = report.summary.passed;
    const perCase = cost === null || passed === 0 ? null : cost / passed;
    add(
      `each passed case costs at most ${formatCost(gate.max_cost_per_passed_case_usd)}`,
      perCase === null
        ? [cost === null ? unknown : 'no case passed']
        : perCase > gate.max_cost_per_passed_case_usd
          ? [`${formatCost(perCase)} per passed case`]
          : [],
    );
  }
  if (judges.length > 0)
    add(
      `every judge with min_kappa is calibrated, current and at or above it (${judges.length})`,
      judges.filter((judge) => judge.state !== 'ok').map((judge) => judge.message),
    );
  return { held: rules.every((rule) => rule.held), rules };
}

/** The gate in words: `Gate: BROKEN` then one line per rule, `held` / `broken: a, b`. */
export function renderGate(result: GateResult): string {
  const lines = [`Gate: ${result.held ? 'HELD' : 'BROKEN'}`];
  for (const rule of result.rules)
    lines.push(
      `  ${rule.held ? 'held  ' : 'broken'}  ${rule.rule}${rule.held ? '' : `: ${rule.broken_by.join(', ')}`}`,
    );
  return `${lines.join('\n')}\n`;
}
