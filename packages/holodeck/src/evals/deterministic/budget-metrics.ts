import type { MetricConfig } from '../../config/index.js';
import type { Metric } from '../metric.js';
import { checkOutcome, metricName } from '../metric-outcome.js';

type BudgetConfig = Extract<MetricConfig, { type: 'latency' | 'cost' | 'turns' }>;

const MEASURES = {
  latency: {
    read: (input: { durationMs: number }) => input.durationMs,
    unit: (value: number) => `${Math.round(value)} ms`,
  },
  cost: {
    read: (input: { costUsd: number }) => input.costUsd,
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
