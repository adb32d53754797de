import type { LoadedAgent } from '../../config/index.js';
import { summarise } from '../build-case-report.js';
import { DEFAULT_CONFIDENCE } from '../report/case-state.js';
import { instructionsVersion, redactAgentConfig, sha256Of } from '../report/redact-agent-config.js';
import type { MatrixVariantReport, RunAgent, RunReport } from '../report/run-report.js';
import type { MatrixVariant } from './matrix-variant.js';

/** A variant with its run so far: absent when the run stopped before the variant started. */
export interface VariantRun {
  variant: MatrixVariant;
  report?: RunReport;
}

/**
 * One run record holding every variant's results: the cases of each variant tagged with its name
 * (in variant order), each variant's own totals, and the run's totals summed over every attempt of
 * every variant once (each variant's report sums its own attempts; nothing is carried over).
 */
export function combineVariantRuns(
  agent: LoadedAgent,
  runs: readonly VariantRun[],
  state: { startedAt: Date; finishedAt: Date; interrupted: boolean; plannedCases?: number },
): RunReport {
  const first = runs.find((run) => run.report)?.report;
  if (!first) throw new Error('a matrix run combines at least one variant run');
  const cases = runs.flatMap(({ variant, report }) =>
    (report?.cases ?? []).map((caseReport) => ({ ...caseReport, variant: variant.name })),
  );
  const confidence = agent.config.evaluations?.confidence ?? DEFAULT_CONFIDENCE;
  const variants: MatrixVariantReport[] = runs.map(({ variant, report }) => ({
    name: variant.name,
    overrides: redactAgentConfig({ ...variant.overrides }, { env: agent.env, directory: agent.directory }),
    model: variant.agent.config.model.name,
    provider: variant.agent.config.model.provider,
    backend: variant.backend,
    config_hash: report?.agent.config_hash ?? null,
    instructions_hash: report?.agent.instructions_hash ?? sha256Of(variant.agent.instructions),
    summary: report?.summary ?? summarise([], 0, confidence),
    ...(!report || report.interrupted || report.in_progress ? { interrupted: true } : {}),
  }));
  const spent = runs.reduce((sum, run) => sum + (run.report?.budget?.spent_usd ?? 0), 0);
  const budgets = runs.flatMap((run) => (run.report?.budget ? [run.report.budget] : []));
  const { in_progress: _progress, budget: _budget, interrupted: _interrupted, ...shared } = first;
  return {
    ...shared,
    finished_at: state.finishedAt.toISOString(),
    agent: agentAsWritten(agent, first.agent),
    ...(state.interrupted ? { interrupted: true } : {}),
    ...(budgets[0]
      ? {
          budget: {
            max_cost_usd: budgets[0].max_cost_usd,
            spent_usd: spent,
            reached: budgets.some((budget) => budget.reached),
          },
        }
      : {}),
    ...(state.plannedCases !== undefined ? { in_progress: { planned_cases: state.plannedCases } } : {}),
    summary: summarise(cases, state.finishedAt.getTime() - state.startedAt.getTime(), confidence),
    cases,
    matrix: { variants },
  };
}

/** The agent as agent.yaml has it (with its matrix), hashed as a plain run's agent is. */
function agentAsWritten(agent: LoadedAgent, variantAgent: RunAgent): RunAgent {
  const config = redactAgentConfig(agent.config, { env: agent.env, directory: agent.directory });
  const version = instructionsVersion(agent.instructions);
  return {
    name: agent.config.name,
    file: agent.file,
    model: agent.config.model.name,
    provider: agent.config.model.provider,
    config_hash: sha256Of(config),
    config,
    instructions_hash: sha256Of(agent.instructions),
    ...(variantAgent.suite_hash !== undefined ? { suite_hash: variantAgent.suite_hash } : {}),
    ...(version !== undefined ? { instructions_version: version } : {}),
  };
}
