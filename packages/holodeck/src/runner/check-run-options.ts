import { gradingPricing } from '../backends/pricing/grading-pricing.js';
import { backendProfile } from '../backends/select-backend.js';
import type { LoadedAgent } from '../config/index.js';
import { UsageError } from '../errors.js';
import type { SideEffectPlan } from './side-effect-policy.js';

/** The options of a test run that decide whether it can run at all. */
export interface RunOptionChoices {
  isolation: 'process' | 'session';
  maxProcesses?: number | undefined;
  maxCostUsd?: number | undefined;
  /** Whether `--record` or `--replay` is on. */
  recording: boolean;
}

/**
 * Refuses, before anything starts, the option combinations this agent's backend cannot honour
 * (UsageError, exit 2): an isolation level it lacks, `--max-processes` where no agent process
 * starts, `--max-cost` when the cost is unknown, and `--isolation session` with per-case working
 * directories or with a recording.
 */
export function checkRunOptions(
  loaded: LoadedAgent,
  choices: RunOptionChoices,
  sideEffects: SideEffectPlan,
): void {
  const { isolation } = choices;
  const profile = backendProfile(loaded.config.model.provider);
  if (!profile.isolationLevels.includes(isolation)) {
    throw new UsageError(
      '--isolation',
      `${isolation} is not supported by the ${profile.name} backend (provider ${loaded.config.model.provider})`,
      `use --isolation ${profile.isolationLevels.join(' or ')}`,
    );
  }
  if (choices.maxProcesses !== undefined && !profile.agentProcesses) {
    throw new UsageError(
      '--max-processes',
      `the ${profile.name} backend (provider ${loaded.config.model.provider}) runs agents in-process and starts no agent processes to bound`,
      'leave --max-processes out, or use --concurrency to bound the runs at a time',
    );
  }
  const unknownCost = profile.unknownCostReason(loaded.config);
  if (choices.maxCostUsd !== undefined && unknownCost !== undefined) {
    throw new UsageError(
      '--max-cost',
      `the cost of this agent's runs is unknown (${unknownCost}), so a budget cannot be kept`,
      'set pricing: in agent.yaml, or leave --max-cost out',
    );
  }
  if (isolation === 'session' && sideEffects.isolateWorkingDirectory) {
    throw new UsageError(
      '--isolation',
      'session cannot give each test case its own working directory',
      'use --isolation process with --allow-side-effects',
    );
  }
  if (choices.recording && isolation === 'session')
    throw new UsageError(
      '--isolation',
      'session reuses one agent process across cases, so its requests cannot be told apart by case in a recording',
      'leave --isolation out (process) with --record or --replay',
    );
}

/**
 * Refuses `--max-cost` when the suite's judge metrics call a judge model without a known price:
 * the budget counts the judge's spend too, and it could not be kept (UsageError, exit 2).
 */
export function checkJudgeBudget(
  loaded: LoadedAgent,
  usesJudge: boolean,
  maxCostUsd: number | undefined,
): void {
  if (maxCostUsd === undefined || !usesJudge) return;
  const judge = loaded.config.evaluations?.model ?? loaded.config.model;
  const pricing = gradingPricing({ kind: 'judge', provider: judge.provider, model: judge.name });
  if (pricing.kind === 'prices') return;
  const field = loaded.config.evaluations?.model
    ? 'evaluations.model'
    : 'model (the judge when evaluations.model is unset)';
  throw new UsageError(
    '--max-cost',
    `the budget counts the judge's calls, and their cost is unknown (${pricing.reason})`,
    `set ${field} to a model of HoloDeck's price tables, or leave --max-cost out`,
  );
}
