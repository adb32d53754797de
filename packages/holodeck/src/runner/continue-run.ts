import { UsageError } from '../errors.js';
import type { CaseReport, RunReport } from './report/run-report.js';

/** `--retry-errored <run>`: re-run its errored cases; `--resume <run>`: run the cases it did not finish. */
export type ContinueMode = 'retry-errored' | 'resume';

/** A saved run to continue, and how. */
export interface Continuation {
  mode: ContinueMode;
  run: RunReport;
}

const FLAG: Record<ContinueMode, string> = { 'retry-errored': '--retry-errored', resume: '--resume' };

/** What a run of the current agent and suite is, to be checked against the saved one. */
export interface CurrentSuite {
  configHash: string | null;
  suiteHash: string | undefined;
  /** The cases the saved run's selection (filter, tags, shard) picks from the current suite, in suite order. */
  selected: readonly string[];
}

/** A case is finished when it ran to its end: not stopped by the interruption. */
function finished(caseReport: CaseReport): boolean {
  return caseReport.interrupted !== true;
}

/** An errored case (an attempt whose agent run or deciding grader failed), not one stopped before it ended. */
function errored(caseReport: CaseReport): boolean {
  return caseReport.errored && caseReport.interrupted !== true;
}

/**
 * The names of the cases a continuation runs again, in suite order. The saved run must be of the
 * same agent configuration and suite (its hashes): otherwise its results and the new ones would
 * mix two agents in one run. `--retry-errored` needs an errored case; `--resume` an interrupted
 * (or never finished) run. Each refusal is a UsageError that names the run and what to do.
 */
export function casesToContinue(continuation: Continuation, current: CurrentSuite): string[] {
  const { mode, run } = continuation;
  const flag = FLAG[mode];
  const rerun = `run the suite again without ${flag}`;
  if (run.regraded_from !== undefined && mode === 'resume')
    throw new UsageError(flag, `run ${run.run_id} is a regrade of ${run.regraded_from}, not a run to resume`);
  if (run.agent.config_hash === null || current.configHash !== run.agent.config_hash)
    throw new UsageError(
      flag,
      `run ${run.run_id} tested another agent configuration (${shortHash(run.agent.config_hash)}, now ${shortHash(current.configHash)}), so its results cannot be merged with this run's`,
      rerun,
    );
  if (run.agent.suite_hash === undefined || current.suiteHash !== run.agent.suite_hash)
    throw new UsageError(
      flag,
      `run ${run.run_id} ran another test suite (${shortHash(run.agent.suite_hash ?? null)}, now ${shortHash(current.suiteHash ?? null)}): the test cases, metrics or thresholds changed since`,
      rerun,
    );
  const saved = new Map(run.cases.map((caseReport) => [caseReport.name, caseReport] as const));
  if (mode === 'retry-errored') {
    // The merged run would still lack what the saved one did not finish: finish it first.
    if (run.interrupted || run.in_progress !== undefined)
      throw new UsageError(
        flag,
        `run ${run.run_id} did not finish (it was interrupted)`,
        `finish it first with --resume ${run.run_id}, then retry the errored cases of the run that makes`,
      );
    const names = current.selected.filter((name) => {
      const caseReport = saved.get(name);
      return caseReport !== undefined && errored(caseReport);
    });
    if (!names.length) throw new UsageError(flag, `run ${run.run_id} has no errored case: nothing to retry`);
    return names;
  }
  if (!run.interrupted && run.in_progress === undefined)
    throw new UsageError(
      flag,
      `run ${run.run_id} was not interrupted: every case of it finished`,
      `use --retry-errored ${run.run_id} to re-run its errored cases, or run the suite again`,
    );
  const names = current.selected.filter((name) => {
    const caseReport = saved.get(name);
    return caseReport === undefined || !finished(caseReport);
  });
  if (!names.length)
    throw new UsageError(flag, `every selected case of run ${run.run_id} finished: nothing to resume`, rerun);
  return names;
}

/**
 * The cases of the continued run in suite order: the fresh report of each case run again, the
 * saved report of every other selected case the saved run has.
 */
export function mergeContinuedCases(
  continuation: Continuation,
  selected: readonly string[],
  fresh: readonly CaseReport[],
): CaseReport[] {
  const byName = new Map(continuation.run.cases.map((caseReport) => [caseReport.name, caseReport] as const));
  for (const caseReport of fresh) byName.set(caseReport.name, caseReport);
  return selected.flatMap((name) => {
    const found = byName.get(name);
    return found ? [found] : [];
  });
}

function shortHash(hash: string | null): string {
  return hash ? hash.replace(/^sha256:/, '').slice(0, 7) : 'none';
}
