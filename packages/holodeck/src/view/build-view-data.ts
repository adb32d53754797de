import type { CaseReport, RunComparison, RunReport } from '../runner/report/index.js';
import { matrixGrid } from '../runner/report/matrix-grid.js';
import type {
  ViewCase,
  ViewComparison,
  ViewMatrix,
  ViewRun,
  ViewRunHeader,
  ViewRunListEntry,
} from './view-data.js';

/** The flags that selected and repeated the cases of a run, as the user typed them. */
function selectionOf(report: RunReport): string[] {
  const { options } = report;
  return [
    ...(options.filter !== undefined ? [`--filter ${options.filter}`] : []),
    ...(options.tags ?? []).map((tag) => `--tag ${tag}`),
    ...(options.shard ? [`--shard ${options.shard}`] : []),
    ...(options.repeat !== undefined ? [`--repeat ${options.repeat}`] : []),
  ];
}

/** What the runs list and a run page's header show about a run. */
export function toRunHeader(report: RunReport): ViewRunHeader {
  const versions = report.environment?.versions;
  return {
    run_id: report.run_id,
    started_at: report.started_at,
    finished_at: report.finished_at,
    agent: {
      name: report.agent.name,
      model: report.agent.model,
      provider: report.agent.provider,
      config_hash: report.agent.config_hash,
      ...(report.agent.suite_hash !== undefined ? { suite_hash: report.agent.suite_hash } : {}),
      instructions_hash: report.agent.instructions_hash,
      ...(report.agent.instructions_version !== undefined
        ? { instructions_version: report.agent.instructions_version }
        : {}),
    },
    git: report.environment?.git ?? null,
    versions: versions
      ? {
          holodeck: versions.holodeck,
          node: versions.node,
          sdk: versions.sdk ? `${versions.sdk.name} ${versions.sdk.version}` : null,
          cli: versions.cli,
        }
      : null,
    selection: selectionOf(report),
    interrupted: report.interrupted === true,
    ...(report.continued_from
      ? { continued_from: { run_id: report.continued_from.run_id, mode: report.continued_from.mode } }
      : {}),
    planned_cases: report.in_progress?.planned_cases ?? null,
    summary: report.summary,
  };
}

/** A case without the report's convenience copies of its first attempt (they are in `attempts`). */
function toViewCase(caseReport: CaseReport): ViewCase {
  const {
    response: _response,
    tool_calls: _toolCalls,
    tool_results: _toolResults,
    metrics: _metrics,
    num_turns: _turns,
    ...rest
  } = caseReport;
  return rest;
}

/** A run as its pages show it; a matrix run with its grid, each case named after its variant too. */
export function toViewRun(report: RunReport): ViewRun {
  if (!report.matrix)
    return { ...toRunHeader(report), config: report.agent.config, cases: report.cases.map(toViewCase) };
  const cases = report.cases.map((caseReport) => ({
    ...toViewCase(caseReport),
    name: variantCaseName(caseReport.name, caseReport.variant),
  }));
  return { ...toRunHeader(report), config: report.agent.config, cases, matrix: toViewMatrix(report) };
}

/** `capital [gpt]`: a case of a matrix run, under one variant. */
function variantCaseName(name: string, variant: string | undefined): string {
  return variant === undefined ? name : `${name} [${variant}]`;
}

function toViewMatrix(report: RunReport): ViewMatrix {
  const grid = matrixGrid(report);
  return {
    variants: grid.variants.map((variant) => ({
      name: variant.name,
      model: variant.model,
      provider: variant.provider,
      backend: variant.backend,
      summary: variant.summary,
    })),
    rows: grid.rows.map((row) => ({
      name: row.name,
      cells: row.cells.map((cell, index) =>
        cell
          ? {
              case_name: variantCaseName(row.name, grid.variants[index]?.name),
              status: cell.status,
              passed: cell.passed,
              finished: cell.finished,
              pass_rate: cell.passRate,
              score: cell.score,
              cost_usd: cell.costUsd,
              latency_ms: cell.latencyMs,
              best: cell.best,
            }
          : null,
      ),
    })),
  };
}

/** A run as the runs list needs it: its header and the agent file it tested. */
export interface ListedRun {
  header: ViewRunHeader;
  agentFile: string;
  /** Every case name of the run's suite; null or absent when not recorded. */
  suiteCases?: readonly string[] | null;
}

/** The cases of `current` not in `previous` (added), and those of `previous` not in `current` (removed). */
function suiteDifference(
  current: readonly string[],
  previous: readonly string[],
): { suite_added: string[]; suite_removed: string[] } {
  const now = new Set(current);
  const before = new Set(previous);
  return {
    suite_added: current.filter((name) => !before.has(name)),
    suite_removed: previous.filter((name) => !now.has(name)),
  };
}

/**
 * The runs list, newest first as given, each marked when its agent configuration, instructions or
 * suite differ from the previous (older) run of the same agent file; a changed suite lists the
 * cases added and removed since. Runs of format 1 have no hashes and are never marked.
 */
export function toRunList(runs: readonly ListedRun[]): ViewRunListEntry[] {
  return runs.map((run, index) => {
    const previous = runs
      .slice(index + 1)
      .find((older) => older.agentFile === run.agentFile && older.header.agent.config_hash !== null);
    const differs = (pick: (header: ViewRunHeader) => string | null | undefined) =>
      previous !== undefined && pick(run.header) !== null && pick(run.header) !== pick(previous.header);
    const suiteChanged =
      differs((header) => header.agent.suite_hash) && previous?.header.agent.suite_hash !== undefined;
    const difference =
      suiteChanged && run.suiteCases && previous?.suiteCases
        ? suiteDifference(run.suiteCases, previous.suiteCases)
        : undefined;
    return {
      ...run.header,
      config_changed: differs((header) => header.agent.config_hash),
      instructions_changed: differs((header) => header.agent.instructions_hash),
      suite_changed: suiteChanged,
      ...(difference ? difference : {}),
    };
  });
}

/** A comparison (compareRuns) with the headers of both runs, for the compare page. */
export function toViewComparison(
  current: RunReport,
  baseline: RunReport,
  comparison: RunComparison,
): ViewComparison {
  return {
    baseline: toRunHeader(baseline),
    current: toRunHeader(current),
    cases: comparison.cases.map((entry) => ({
      name: entry.name,
      change: entry.change,
      ...(entry.baselineStatus !== undefined ? { baselineStatus: entry.baselineStatus } : {}),
      ...(entry.currentStatus !== undefined ? { currentStatus: entry.currentStatus } : {}),
      metrics: entry.metrics.map((metric) => ({
        name: metric.name,
        change: metric.change,
        ...(metric.baselineScore !== undefined ? { baselineScore: metric.baselineScore } : {}),
        ...(metric.currentScore !== undefined ? { currentScore: metric.currentScore } : {}),
        ...(metric.delta !== undefined ? { delta: metric.delta } : {}),
      })),
    })),
    counts: comparison.counts,
    notSelected: comparison.notSelected,
    differences: comparison.differences,
  };
}
