import { backendProfile } from '../../backends/select-backend.js';
import type { ConfigWarning, LoadedAgent } from '../../config/index.js';
import { ConfigError, type ConfigIssue, UsageError } from '../../errors.js';
import { prepareSuite } from '../prepare-suite.js';
import type { RunReport } from '../report/run-report.js';
import { runTestSuite, type TestRunOptions } from '../run-test-suite.js';
import { planSideEffects } from '../side-effect-policy.js';
import { combineVariantRuns, type VariantRun } from './combine-variant-runs.js';
import { expandMatrix } from './expand-matrix.js';
import type { MatrixVariant } from './matrix-variant.js';
import type { WrittenMatrix } from './resolve-matrix.js';

/** Options of a matrix run: those of `runTestSuite`, less what a matrix cannot do (see refuseOptions). */
export type MatrixRunOptions = TestRunOptions;

/** What inspectMatrix found: the variants when nothing is wrong. */
export interface MatrixInspection {
  variants?: MatrixVariant[];
  issues: ConfigIssue[];
  warnings: ConfigWarning[];
  /** Credentials a variant needs and the environment lacks, located at the variant. */
  missingCredentials: ConfigIssue[];
}

/**
 * Checks every variant of a matrix as `holodeck test` would before any case runs: its agent.yaml
 * as agent.yaml is checked (expandMatrix), its suite as the run prepares it (tool names differ by
 * backend), and the credentials its provider needs. `holodeck validate` reports the same.
 */
export async function inspectMatrix(
  agent: LoadedAgent,
  written: WrittenMatrix,
  options: { allowSideEffects?: boolean } = {},
): Promise<MatrixInspection> {
  const expansion = await expandMatrix(agent, written.matrix, written.source);
  const issues: ConfigIssue[] = [...expansion.issues];
  for (const variant of expansion.variants ?? []) {
    const sideEffects = planSideEffects(variant.agent, options.allowSideEffects ?? false);
    try {
      await prepareSuite(sideEffects.agent, variant.agent);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      issues.push(
        ...error.issues.map((issue) => ({
          ...issue,
          message: `variant "${variant.name}": ${issue.message}`,
        })),
      );
    }
  }
  const found = {
    issues: dedupe(issues),
    warnings: expansion.warnings,
    missingCredentials: expansion.missingCredentials,
  };
  return issues.length || !expansion.variants ? found : { ...found, variants: expansion.variants };
}

/** The variants of a matrix, all checked (inspectMatrix); throws one ConfigError with every problem, credentials included. */
export async function prepareMatrix(
  agent: LoadedAgent,
  written: WrittenMatrix,
  options: { allowSideEffects?: boolean; onNotice?: (message: string) => void } = {},
): Promise<MatrixVariant[]> {
  const inspection = await inspectMatrix(agent, written, options);
  const issues = [...inspection.issues, ...inspection.missingCredentials];
  if (issues.length || !inspection.variants) throw new ConfigError(issues);
  for (const warning of inspection.warnings) options.onNotice?.(warning.message);
  return inspection.variants;
}

/**
 * Runs the suite once per variant, one variant after another, each on the backend its provider
 * selects (through `runTestSuite`, so through the backend contract only), and returns one report
 * holding them all (combineVariantRuns). `--max-cost` is one budget for the whole run; a stop
 * (signal, budget) leaves the variants not started out, marked interrupted.
 */
export async function runMatrix(
  agent: LoadedAgent,
  variants: readonly MatrixVariant[],
  options: MatrixRunOptions = {},
): Promise<RunReport> {
  refuseOptions(options);
  const startedAt = new Date();
  const runs: VariantRun[] = variants.map((variant) => ({ variant }));
  let perVariant = 0;
  let spentUsd = 0;
  const plannedCases = () => perVariant * variants.length;
  const combine = (interrupted: boolean, inProgress: boolean) =>
    combineVariantRuns(agent, runs, {
      startedAt,
      finishedAt: new Date(),
      interrupted,
      ...(inProgress ? { plannedCases: plannedCases() } : {}),
    });
  for (const [index, run] of runs.entries()) {
    if (options.signal?.aborted) break;
    const { variant } = run;
    const label = (name: string) => `${name} [${variant.name}]`;
    const remaining =
      options.maxCostUsd !== undefined ? Math.max(0, options.maxCostUsd - spentUsd) : undefined;
    const processes = backendProfile(variant.agent.config.model.provider).agentProcesses;
    run.report = await runTestSuite(variant.agent, {
      ...options,
      ...(remaining !== undefined ? { maxCostUsd: remaining } : {}),
      // --max-processes bounds the variants that start agent processes (Claude) only.
      ...(options.maxProcesses !== undefined && !processes ? { maxProcesses: undefined } : {}),
      onNotice: (message) => options.onNotice?.(`[${variant.name}] ${message}`),
      onStart: (total, names) => {
        perVariant = total;
        if (index === 0) options.onStart?.(total * variants.length, names);
      },
      onCaseStarted: (name) => options.onCaseStarted?.(label(name)),
      onCaseFinished: (caseReport) =>
        options.onCaseFinished?.({ ...caseReport, name: label(caseReport.name), variant: variant.name }),
      onProgress: (partial) => {
        run.report = partial;
        options.onProgress?.(combine(false, true));
      },
    });
    spentUsd += run.report.budget?.spent_usd ?? 0;
    if (run.report.budget?.reached) break;
  }
  const stopped = options.signal?.aborted === true || runs.some((run) => run.report?.budget?.reached);
  return combine(stopped || runs.some((run) => run.report?.interrupted), false);
}

/** What a matrix run cannot do: each is a UsageError saying what to do instead. */
function refuseOptions(options: MatrixRunOptions): void {
  if (options.recorder)
    throw new UsageError(
      options.recorder.mode === 'replay' ? '--replay' : '--record',
      'a recording holds one agent per case, and a matrix runs each case once per variant',
      'record or replay one variant at a time: holodeck test --matrix with a single variant',
    );
  if (options.continueFrom)
    throw new UsageError(
      options.continueFrom.mode === 'resume' ? '--resume' : '--retry-errored',
      'a matrix run cannot continue a saved run',
      'run the matrix again',
    );
  if (options.maxProcesses !== undefined && options.maxProcesses < 1)
    throw new UsageError('--max-processes', `needs a whole number ≥ 1, got ${options.maxProcesses}`);
}

function dedupe(issues: readonly ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.file}:${issue.line}:${issue.column}:${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
