import { gradingPricing } from '../backends/pricing/grading-pricing.js';
import { backendProfile } from '../backends/select-backend.js';
import type { LLMProvider, LoadedAgent } from '../config/index.js';
import { UsageError } from '../errors.js';
import type { EmbeddingSettings } from '../tools/retrieval/embed/resolve-embedding-settings.js';
import { metricEmbeddingSettings } from './metric-embeddings.js';
import type { PreparedCase } from './prepared-suite.js';
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
 * Refuses `--max-cost` when a grading call of the suite has no known price (UsageError, exit 2):
 * the budget counts the judge's spend, and the `similar` metric's embeddings, too, and it could
 * not be kept. An embeddings model that cannot be resolved here is left to fail when it runs.
 */
export function checkJudgeBudget(
  loaded: LoadedAgent,
  suite: { usesJudge: boolean; cases: readonly PreparedCase[] },
  maxCostUsd: number | undefined,
): void {
  if (maxCostUsd === undefined) return;
  const refuse = (what: string, reason: string, fix: string) =>
    new UsageError(
      '--max-cost',
      `the budget counts ${what}, and their cost is unknown (${reason})`,
      `${fix}, or leave --max-cost out`,
    );
  if (suite.usesJudge) {
    const judge = loaded.config.evaluations?.model ?? loaded.config.model;
    const pricing = gradingPricing({ kind: 'judge', provider: judge.provider, model: judge.name });
    if (pricing.kind === 'unknown') {
      const field = loaded.config.evaluations?.model
        ? 'evaluations.model'
        : 'model (the judge when evaluations.model is unset)';
      throw refuse("the judge's calls", pricing.reason, `set ${field} to a model of HoloDeck's price tables`);
    }
  }
  for (const provider of similarProviders(loaded, suite.cases)) {
    let settings: EmbeddingSettings;
    try {
      settings = metricEmbeddingSettings(loaded, provider);
    } catch {
      continue;
    }
    const pricing = gradingPricing({
      kind: 'embeddings',
      provider: settings.provider,
      model: settings.model,
    });
    if (pricing.kind === 'unknown')
      throw refuse(
        "the similar metric's embeddings requests",
        pricing.reason,
        'give the similar metric an embedding_provider from the price table',
      );
  }
}

/** The embedding_provider of every `similar` metric of the cases (undefined: the agent's). */
function similarProviders(loaded: LoadedAgent, cases: readonly PreparedCase[]): Set<LLMProvider | undefined> {
  const providers = new Set<LLMProvider | undefined>();
  const defaults = loaded.config.evaluations?.metrics ?? [];
  for (const testCase of cases) {
    const configs = [
      ...(testCase.config.metrics ?? defaults),
      ...(testCase.config.turns ?? []).flatMap((turn) => turn.metrics ?? []),
    ];
    for (const metric of configs) if (metric.type === 'similar') providers.add(metric.embedding_provider);
  }
  return providers;
}
