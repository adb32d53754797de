import type { RunComparison } from './compare-runs.js';
import type { ReportComparison } from './run-report.js';

const round = (value: number) => Math.round(value * 1e6) / 1e6;
const interval = (range: {
  estimate: number;
  lower: number;
  upper: number;
  confidence: number;
  method: string;
}) => ({
  estimate: round(range.estimate),
  lower: round(range.lower),
  upper: round(range.upper),
  confidence: range.confidence,
  method: range.method,
});

const roundCost = (value: number | null) => (value === null ? null : Math.round(value * 1e10) / 1e10);
const difference = (current: number | null, baseline: number | null) =>
  current === null || baseline === null ? null : roundCost(current - baseline);

/** The comparison as the JSON report keeps it (`comparison`, see docs/report-format.md). */
export function comparisonJson(comparison: RunComparison): ReportComparison {
  const { suite } = comparison;
  return {
    baseline_run_id: comparison.baselineRunId,
    confidence: comparison.confidence,
    compared_cases: comparison.compared,
    not_selected: comparison.notSelected,
    differences: comparison.differences,
    counts: comparison.counts,
    cost: {
      baseline_usd: roundCost(comparison.cost.baseline),
      current_usd: roundCost(comparison.cost.current),
      delta_usd: difference(comparison.cost.current, comparison.cost.baseline),
      baseline_per_passed_case_usd: roundCost(comparison.cost.baselinePerPassed),
      current_per_passed_case_usd: roundCost(comparison.cost.currentPerPassed),
      delta_per_passed_case_usd: difference(
        comparison.cost.currentPerPassed,
        comparison.cost.baselinePerPassed,
      ),
    },
    suite: {
      baseline_pass_rate: round(suite.baselinePassRate),
      current_pass_rate: round(suite.currentPassRate),
      delta: { ...interval(suite.delta), seed: suite.delta.seed, resamples: suite.delta.resamples },
      mcnemar: suite.mcnemar
        ? {
            baseline_only: suite.mcnemar.baselineOnly,
            current_only: suite.mcnemar.currentOnly,
            p_value: round(suite.mcnemar.pValue),
          }
        : null,
      wins: suite.wins,
      losses: suite.losses,
      ties: suite.ties,
      verdict: suite.verdict,
      verdict_basis: suite.verdictBasis,
      chance: {
        expected_false_regressions: round(suite.chance.expectedFalseRegressions),
        at_least_one: round(suite.chance.atLeastOne),
      },
    },
    cases: comparison.cases.map((entry) => ({
      name: entry.name,
      change: entry.change,
      ...(entry.notComparedReason !== undefined ? { not_compared_reason: entry.notComparedReason } : {}),
      ...(entry.statistics
        ? {
            cost_per_attempt_delta_usd: difference(entry.cost?.current ?? null, entry.cost?.baseline ?? null),
            baseline: entry.statistics.baseline,
            current: entry.statistics.current,
            delta: interval(entry.statistics.delta),
            p_value: round(entry.statistics.pValue),
            holm_p_value: round(entry.statistics.holmPValue),
            outcome: entry.statistics.outcome,
          }
        : {}),
    })),
  };
}
