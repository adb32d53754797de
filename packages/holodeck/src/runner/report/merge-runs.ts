import { summarise } from '../build-case-report.js';
import { DEFAULT_CONFIDENCE } from './case-state.js';
import type { RunReport } from './run-report.js';
import { RunReportError } from './run-report-error.js';

/**
 * Combines the runs of a sharded suite (`--shard k/n` on each machine) into one run: checked to be
 * of the same agent configuration and suite (hashes), with no case twice and none of the suite
 * missing. Cases come in the suite's order; the summary is recomputed. `sources` names each run
 * (its file) in errors.
 */
export function mergeRuns(runs: readonly RunReport[], sources: readonly string[], runId: string): RunReport {
  const [first] = runs;
  if (!first) throw new RunReportError('merge', 'Nothing to merge: pass the JSON run files of the shards.');
  const named = (index: number) => sources[index] ?? runs[index]?.run_id ?? `run ${index + 1}`;
  for (const [index, run] of runs.entries()) {
    if (run.matrix)
      throw new RunReportError(
        named(index),
        `Cannot merge: ${named(index)} is a matrix run, whose cases repeat once per variant. Merge the shards of plain runs; shard a matrix by running each variant with --matrix.`,
      );
    for (const [label, pick] of [
      ['agent configuration hash', (report: RunReport) => report.agent.config_hash],
      ['suite hash', (report: RunReport) => report.agent.suite_hash ?? null],
    ] as const) {
      if (pick(run) !== pick(first))
        throw new RunReportError(
          named(index),
          `Cannot merge: ${named(index)} has another ${label} than ${named(0)} (${pick(run) ?? 'none'} against ${pick(first) ?? 'none'}): the shards ran different agents or suites. Rerun them from the same commit.`,
        );
    }
  }
  const owner = new Map<string, number>();
  for (const [index, run] of runs.entries()) {
    for (const caseReport of run.cases) {
      const earlier = owner.get(caseReport.name);
      if (earlier !== undefined)
        throw new RunReportError(
          named(index),
          `Cannot merge: case "${caseReport.name}" is in both ${named(earlier)} and ${named(index)}. Merge each shard once.`,
        );
      owner.set(caseReport.name, index);
    }
  }
  const suite = first.suite_cases ?? [...owner.keys()];
  const missing = suite.filter((name) => !owner.has(name));
  if (missing.length)
    throw new RunReportError(
      'merge',
      `Cannot merge: ${missing.length} case(s) of the suite are in no run: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}. Pass every shard's run file.`,
    );
  const byName = new Map(
    runs.flatMap((run) => run.cases.map((caseReport) => [caseReport.name, caseReport] as const)),
  );
  const cases = suite.flatMap((name) => {
    const found = byName.get(name);
    return found ? [found] : [];
  });
  const startedAt = runs.map((run) => run.started_at).sort()[0] ?? first.started_at;
  const finishedAt =
    runs
      .map((run) => run.finished_at)
      .sort()
      .at(-1) ?? first.finished_at;
  const { shard: _shard, ...options } = first.options;
  const interrupted = runs.some((run) => run.interrupted);
  return {
    ...first,
    run_id: runId,
    started_at: startedAt,
    finished_at: finishedAt,
    options,
    ...(interrupted ? { interrupted: true } : {}),
    summary: summarise(
      cases,
      Date.parse(finishedAt) - Date.parse(startedAt),
      first.summary.confidence ?? DEFAULT_CONFIDENCE,
    ),
    cases,
  };
}
