import type { MatrixVariantReport, RunReport } from './run-report.js';

/**
 * One variant of a matrix run as a plain run: its cases (without `variant`), its totals and its
 * model, so what reads one agent's run (baseline statistics, the gate, JUnit suites) reads a
 * variant unchanged. The run id is the matrix run's with `#<variant>`.
 */
export function variantRun(report: RunReport, name: string): RunReport {
  const variant = findVariant(report, name);
  const { matrix: _matrix, comparison: _comparison, ...rest } = report;
  return {
    ...rest,
    run_id: `${report.run_id}#${variant.name}`,
    agent: {
      ...report.agent,
      model: variant.model,
      provider: variant.provider,
      config_hash: variant.config_hash,
      instructions_hash: variant.instructions_hash,
    },
    ...(variant.interrupted ? { interrupted: true } : {}),
    summary: variant.summary,
    cases: report.cases
      .filter((caseReport) => caseReport.variant === variant.name)
      .map(({ variant: _variant, ...caseReport }) => caseReport),
  };
}

/** A variant of a matrix run by name; an Error naming the variants there are otherwise. */
export function findVariant(report: RunReport, name: string): MatrixVariantReport {
  const variants = report.matrix?.variants ?? [];
  const found = variants.find((variant) => variant.name === name);
  if (found) return found;
  throw new Error(
    report.matrix
      ? `run ${report.run_id} has no variant "${name}"; its variants are ${variants.map((variant) => variant.name).join(', ')}`
      : `run ${report.run_id} is not a matrix run, so it has no variants`,
  );
}
