import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { RepeatOption } from '../../runner/repeat-plan.js';

/** The verdict options of `holodeck test` (statistics, budgets), as commander gives them. */
export interface VerdictCommandOptions {
  maxCost?: string;
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
  return command.option(
    '--max-cost <usd>',
    'stop starting attempts once the run has spent this many US dollars (partial report, saved and marked; exit 1)',
  );
}

/** `the run stopped at its budget: --max-cost $0.50 reached ($0.52 spent); 3 cases not finished`. */
export function describeBudgetStop(
  budget: { max_cost_usd: number; spent_usd: number },
  stopped: number,
): string {
  const cases = stopped === 1 ? '1 case' : `${stopped} cases`;
  return `the run stopped at its budget: --max-cost $${budget.max_cost_usd} reached ($${budget.spent_usd.toFixed(4)} spent); ${cases} not finished, marked stopped`;
}
