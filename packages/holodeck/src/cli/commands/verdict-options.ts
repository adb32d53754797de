import { appendFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { GateConfig } from '../../config/schema/evaluation-config-schema.js';
import { UsageError } from '../../errors.js';
import type { Continuation, ContinueMode } from '../../runner/continue-run.js';
import type { GateResult, JudgeCalibrationState } from '../../runner/gate/evaluate-gate.js';
import type { RepeatOption } from '../../runner/repeat-plan.js';
import type { RunComparison } from '../../runner/report/compare-runs.js';
import type { RunReport } from '../../runner/report/run-report.js';
import { errorMessage } from '../../support.js';

/** The verdict options of `holodeck test` (statistics, budgets), as commander gives them. */
export interface VerdictCommandOptions {
  maxCost?: string;
  gate?: boolean;
  ciSummary?: string;
  retryErrored?: string;
  resume?: string;
}

/** The selection flags a continuation takes from the saved run instead. */
interface SelectionFlags {
  repeat?: string;
  filter?: string;
  tag: string[];
  shard?: string;
}

/** `--retry-errored <run>` or `--resume <run>`, checked: which, and the run reference given. */
export interface ContinuationFlag {
  mode: ContinueMode;
  reference: string;
}

/**
 * Reads `--retry-errored` / `--resume` before anything loads. The saved run's selection (filter,
 * tags, shard, repeat) is the one continued, so giving one of those flags as well is a usage
 * error, as is giving both continuation flags.
 */
export function continuationFlag(
  options: VerdictCommandOptions & SelectionFlags,
): ContinuationFlag | undefined {
  if (options.retryErrored !== undefined && options.resume !== undefined)
    throw new UsageError('--resume', 'cannot be combined with --retry-errored', 'continue one run at a time');
  const mode: ContinueMode | undefined =
    options.retryErrored !== undefined
      ? 'retry-errored'
      : options.resume !== undefined
        ? 'resume'
        : undefined;
  const reference = options.retryErrored ?? options.resume;
  if (!mode || reference === undefined) return undefined;
  const clashing = [
    ...(options.repeat !== undefined ? ['--repeat'] : []),
    ...(options.filter !== undefined ? ['--filter'] : []),
    ...(options.tag.length ? ['--tag'] : []),
    ...(options.shard !== undefined ? ['--shard'] : []),
  ];
  if (clashing.length)
    throw new UsageError(
      `--${mode}`,
      `cannot be combined with ${clashing.join(', ')}: the continued run keeps the selection and repeats of the run it continues`,
      `leave ${clashing.join(', ')} out`,
    );
  return { mode, reference };
}

/** The saved run a continuation continues (an id, a report file or `latest`, as `--baseline`). */
export async function loadContinuation(flag: ContinuationFlag, runsDir: string): Promise<Continuation> {
  const { listRuns, loadRun } = await import('../../runner/report/run-store.js');
  // `latest` is the latest complete run for --baseline; an interrupted one is what --resume is for.
  if (flag.mode === 'resume' && flag.reference === 'latest') {
    const newest = (await listRuns(runsDir)).runs.find((run) => run.interrupted || run.inProgress);
    if (!newest)
      throw new UsageError(
        '--resume',
        `no interrupted run is saved in ${runsDir}`,
        'pass the id of the run to resume',
      );
    return { mode: flag.mode, run: await loadRun(newest.path, runsDir) };
  }
  return { mode: flag.mode, run: await loadRun(flag.reference, runsDir) };
}

/** The selection of the saved run a continuation continues, as runTestSuite options. */
export function continuedSelection(run: RunReport): {
  repeat?: RepeatOption;
  filter?: string;
  tags?: string[];
  shard?: { index: number; count: number };
} {
  const { options } = run;
  const shard = options.shard ? /^(\d+)\/(\d+)$/.exec(options.shard) : null;
  return {
    ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
    ...(options.filter !== undefined ? { filter: options.filter } : {}),
    ...(options.tags?.length ? { tags: options.tags } : {}),
    ...(shard ? { shard: { index: Number(shard[1]), count: Number(shard[2]) } } : {}),
  };
}

/** `--repeat <n|auto>`: a whole number ≥ 1, or `auto`. */
export function parseRepeat(value: string): RepeatOption {
  if (value.trim() === 'auto') return 'auto';
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new UsageError('--repeat', `needs a whole number ≥ 1 or "auto", got "${value}"`);
  return parsed;
}

/** `--max-cost <usd>`: a number of US dollars > 0. */
export function parseMaxCost(value: string): number {
  const parsed = Number(value.trim().replace(/^\$/, ''));
  if (!Number.isFinite(parsed) || parsed <= 0 || value.trim() === '')
    throw new UsageError('--max-cost', `needs an amount of US dollars above 0, e.g. 2.50, got "${value}"`);
  return parsed;
}

/** Adds the verdict options to the `test` command. */
export function registerVerdictOptions(command: Command): Command {
  return command
    .option(
      '--max-cost <usd>',
      'stop starting attempts once the run has spent this many US dollars (partial report, saved and marked; exit 1)',
    )
    .option(
      '--ci-summary <file>',
      'append the CI summary (Markdown: figures, gate, failed and regressed cases) to a file',
    )
    .option(
      '--retry-errored <run>',
      'run again only the errored cases of a saved run (id, file or "latest"), with its selection; the new run holds them merged with its other cases',
    )
    .option(
      '--resume <run>',
      'finish an interrupted saved run: run the cases it did not finish, with its selection; the new run holds them merged with the ones it finished',
    )
    .option(
      '--gate',
      'check the release gate (evaluations.gate, else its defaults) against the approved baseline; exit 1 when broken',
    );
}

/** `--baseline approved`: the approved baseline as a run; any other reference: a saved run. */
export async function loadBaseline(
  reference: string,
  agentFolder: string,
  runsDir: string,
): Promise<RunReport> {
  if (reference === 'approved') {
    const { approvedAsRun, approvedBaselinePath, readApprovedBaseline } = await import(
      '../../runner/gate/approved-baseline.js'
    );
    return approvedAsRun(await readApprovedBaseline(agentFolder), approvedBaselinePath(agentFolder));
  }
  const { loadRun } = await import('../../runner/report/run-store.js');
  const run = await loadRun(reference, runsDir);
  if (run.matrix)
    throw new UsageError(
      '--baseline',
      `run ${run.run_id} is a matrix run (${run.matrix.variants.length} variants), which holds each case once per variant`,
      'compare with a run of the agent without its matrix, or compare variants with holodeck test compare <run> --variants a,b',
    );
  return run;
}

/**
 * The gate of a run: its rules against the approved baseline (read, then compared), printed
 * held / broken. Returns whether it held.
 */
export async function checkGate(
  result: RunReport,
  gate: GateConfig,
  agentFolder: string,
  suiteCases: readonly string[],
  color: boolean,
  judges: readonly JudgeCalibrationState[] = [],
): Promise<{ held: boolean; text: string; gate: GateResult }> {
  const [
    { approvedAsRun, approvedBaselinePath, readApprovedBaseline },
    { compareRuns },
    { evaluateGate, renderGate },
  ] = await Promise.all([
    import('../../runner/gate/approved-baseline.js'),
    import('../../runner/report/compare-runs.js'),
    import('../../runner/gate/evaluate-gate.js'),
  ]);
  let approved: { comparison: RunComparison } | { error: string };
  try {
    const baseline = approvedAsRun(
      await readApprovedBaseline(agentFolder),
      approvedBaselinePath(agentFolder),
    );
    approved = { comparison: compareRuns(result, baseline, { suiteCases }) };
  } catch (error) {
    approved = { error: errorMessage(error) };
  }
  const verdict = evaluateGate(result, gate, approved, judges);
  const text = renderGate(verdict);
  const coloured = color
    ? text.replace(
        /^Gate: (HELD|BROKEN)/,
        (_all, word: string) => `Gate: \u001b[${word === 'HELD' ? 32 : 31}m${word}\u001b[39m`,
      )
    : text;
  return { held: verdict.held, text: coloured, gate: verdict };
}

/** `the run stopped at its budget: --max-cost $0.50 reached ($0.52 spent); 3 cases not finished`. */
export function describeBudgetStop(
  budget: { max_cost_usd: number; spent_usd: number },
  stopped: number,
): string {
  const cases = stopped === 1 ? '1 case' : `${stopped} cases`;
  return `the run stopped at its budget: --max-cost $${budget.max_cost_usd} reached ($${budget.spent_usd.toFixed(4)} spent); ${cases} not finished, marked stopped`;
}

/**
 * The CI surfaces: on GitHub Actions (GITHUB_ACTIONS=true) the Markdown summary appended to
 * $GITHUB_STEP_SUMMARY and `::error` annotations on stdout; with `--ci-summary FILE` the same
 * Markdown appended there. A surface that cannot be written is a warning: it never changes the
 * exit code.
 */
export async function writeCiSurfaces(
  result: RunReport,
  comparison: RunComparison | undefined,
  gate: GateResult | undefined,
  ciSummary: string | undefined,
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void,
): Promise<void> {
  const onGitHub = env.GITHUB_ACTIONS === 'true';
  if (!onGitHub && ciSummary === undefined) return;
  const { githubAnnotations, writeCiSummary } = await import('../../runner/report/ci-surfaces.js');
  const markdown = writeCiSummary(result, comparison, gate);
  const targets = [
    ...(onGitHub && env.GITHUB_STEP_SUMMARY ? [env.GITHUB_STEP_SUMMARY] : []),
    ...(ciSummary ? [ciSummary] : []),
  ];
  for (const target of targets) {
    try {
      await appendFile(target, markdown);
    } catch (error) {
      warn(`could not write the CI summary to ${target} (${errorMessage(error)})`);
    }
  }
  if (onGitHub) {
    const lines = githubAnnotations(result, comparison, env.GITHUB_WORKSPACE ?? process.cwd());
    if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
  }
}
