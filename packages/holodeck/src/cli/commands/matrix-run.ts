import type { LoadedAgent } from '../../config/index.js';
import type { GateConfig } from '../../config/schema/evaluation-config-schema.js';
import { UsageError } from '../../errors.js';
import type { JudgeCalibrationState } from '../../runner/gate/evaluate-gate.js';
import type { MatrixVariant } from '../../runner/matrix/matrix-variant.js';
import type { RunReport } from '../../runner/report/run-report.js';
import { checkGate } from './verdict-options.js';

/** The flags of `holodeck test` a matrix run reads or refuses. */
export interface MatrixFlags {
  matrix?: string;
  baseline?: string;
  record?: string | boolean;
  replay?: string | boolean;
  retryErrored?: string;
  resume?: string;
}

/**
 * The variants of this run: `--matrix`'s, else agent.yaml's `matrix:`; undefined for a plain run.
 * Every variant is checked (agent.yaml, suite, credentials) before anything runs; the flags a
 * matrix run cannot honour are usage errors naming what to do instead.
 */
export async function prepareMatrixRun(
  agent: LoadedAgent,
  flags: MatrixFlags,
  options: { allowSideEffects: boolean; onNotice: (message: string) => void },
): Promise<MatrixVariant[] | undefined> {
  const [{ resolveMatrix }, { prepareMatrix }] = await Promise.all([
    import('../../runner/matrix/resolve-matrix.js'),
    import('../../runner/matrix/run-matrix.js'),
  ]);
  const written = await resolveMatrix(agent, flags.matrix);
  if (!written) return undefined;
  if (flags.matrix !== undefined && agent.config.matrix)
    options.onNotice("--matrix replaces agent.yaml's matrix: for this run");
  const refuse = (flag: string, why: string, hint: string) => {
    throw new UsageError(flag, why, hint);
  };
  if (flags.baseline !== undefined)
    refuse(
      '--baseline',
      'a matrix run compares its variants with each other, not with an earlier run',
      'compare two variants with holodeck test compare <run> --variants a,b, or run one variant against a baseline without the matrix',
    );
  if (flags.record !== undefined || flags.replay !== undefined)
    refuse(
      flags.record !== undefined ? '--record' : '--replay',
      'a recording holds one agent per test case, and a matrix runs each case once per variant',
      'leave --record and --replay out of a matrix run',
    );
  if (flags.retryErrored !== undefined || flags.resume !== undefined)
    refuse(
      flags.resume !== undefined ? '--resume' : '--retry-errored',
      'a matrix run cannot continue a saved run',
      'run the matrix again',
    );
  return prepareMatrix(agent, written, options);
}

/**
 * The gate of a matrix run: each variant's results through the gate as a run of its own (against
 * the approved baseline, when there is one). It holds when it holds for every variant.
 */
export async function checkMatrixGate(
  result: RunReport,
  gate: GateConfig,
  agentFolder: string,
  suiteCases: readonly string[],
  color: boolean,
  judges: readonly JudgeCalibrationState[],
): Promise<{ held: boolean; text: string }> {
  const { variantRun } = await import('../../runner/report/variant-run.js');
  const checks = await Promise.all(
    (result.matrix?.variants ?? []).map(async (variant) => ({
      name: variant.name,
      check: await checkGate(variantRun(result, variant.name), gate, agentFolder, suiteCases, color, judges),
    })),
  );
  return {
    held: checks.every(({ check }) => check.held),
    text: checks.map(({ name, check }) => `[${name}] ${check.text}`).join('\n'),
  };
}

/**
 * The comparison printed after the grid of a two-variant matrix: the second variant against the
 * first, with the statistics `--baseline` uses. Empty for other matrices (see `holodeck test compare`).
 */
export async function renderVariantPair(result: RunReport, color: boolean): Promise<string> {
  const variants = result.matrix?.variants ?? [];
  const [first, second] = variants;
  if (variants.length !== 2 || !first || !second) return '';
  const { compareVariants, renderVariantComparison } = await import(
    '../../runner/matrix/compare-variants.js'
  );
  return renderVariantComparison(compareVariants(result, first.name, second.name), first.name, second.name, {
    color,
  });
}

/** The run with each case named `<case> [<variant>]`, for surfaces that list cases by name (CI). */
export function withVariantNames(result: RunReport): RunReport {
  if (!result.matrix) return result;
  return {
    ...result,
    cases: result.cases.map((caseReport) => ({
      ...caseReport,
      name: caseReport.variant ? `${caseReport.name} [${caseReport.variant}]` : caseReport.name,
    })),
  };
}
