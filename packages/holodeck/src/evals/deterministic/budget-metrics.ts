import type { MetricConfig } from '../../config/index.js';
import type { Metric } from '../metric.js';
import { checkOutcome, errorOutcome, metricName } from '../metric-outcome.js';

type BudgetConfig = Extract<MetricConfig, { type: 'latency' | 'cost' | 'turns' }>;

const MEASURES = {
  latency: {
    read: (input: { durationMs: number }) => input.durationMs,
    unit: (value: number) => `${Math.round(value)} ms`,
  },
  cost: {
    read: (input: { costUsd: number | null }) => input.costUsd,
    unit: (value: number) => `$${value.toFixed(4)}`,
  },
  turns: { read: (input: { numTurns: number }) => input.numTurns, unit: (value: number) => `${value} turns` },
} as const;

/** latency / cost / turns: pass when the run stays within the threshold. */
export function createBudgetMetric(config: BudgetConfig): Metric {
  const measure = MEASURES[config.type];
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input) {
      const value = measure.read(input);
      // An unknown cost is not a cheap run: the check cannot be made, so it is an error, never a pass.
      if (value === null)
        return errorOutcome(
          config,
          `the cost of this run is unknown (${input.costUnknownReason ?? 'its backend could not know it'}), so a cost budget cannot be checked; set pricing: in agent.yaml, or remove the cost metric`,
        );
      const passed = value <= config.threshold;
      const comparison = passed ? '≤' : '>';
      return checkOutcome(
        config,
        passed,
        `${measure.unit(value)} ${comparison} ${measure.unit(config.threshold)}`,
      );
    },
  };
}
