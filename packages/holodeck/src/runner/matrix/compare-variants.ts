import { compareRuns, type RunComparison } from '../report/compare-runs.js';
import { renderComparison } from '../report/render-comparison.js';
import type { RunReport } from '../report/run-report.js';
import { findVariant, variantRun } from '../report/variant-run.js';

/**
 * Variant `current` against variant `baseline` of one matrix run, with the statistics of
 * `--baseline`: cases paired by name, per-case intervals of the change in pass rate, the suite's
 * paired bootstrap and McNemar test, win/loss/tie counts, cost deltas. Throws naming the variants
 * there are when one is not in the run.
 */
export function compareVariants(report: RunReport, baseline: string, current: string): RunComparison {
  findVariant(report, baseline);
  findVariant(report, current);
  const comparison = compareRuns(variantRun(report, current), variantRun(report, baseline), {
    suiteCases: report.suite_cases ?? [],
  });
  return comparison;
}

/** The comparison for the terminal, headed `Variant b compared with variant a (paired by case):`. */
export function renderVariantComparison(
  comparison: RunComparison,
  baseline: string,
  current: string,
  options: { color: boolean },
): string {
  return renderComparison(comparison, options).replace(
    /^Compared with baseline run [^\n]*:/,
    `Variant ${current} compared with variant ${baseline} (paired by case):`,
  );
}
