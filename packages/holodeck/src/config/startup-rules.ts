import type { FieldIssue, FieldWarning } from './field-issue.js';
import type { AgentConfig } from './schema/agent-config-schema.js';

/** What startup rules found: errors that stop the agent, and warnings that let it run. */
export interface StartupRuleResult {
  issues: FieldIssue[];
  warnings: FieldWarning[];
}

/**
 * A backend's startup rules (each backend owns its own), injected by the caller because config/
 * does not import backends; see `checkBackendConfig` in backends/select-backend.ts.
 */
export type CheckBackendConfig = (config: AgentConfig) => Promise<StartupRuleResult>;

/**
 * The provider-neutral rules across fields, checked once the config is valid (paths already
 * absolute). What only one backend can or cannot do is that backend's rule, not this file's.
 */
/** Whether some metric repeats a judgement: a g-eval with samples > 1, or a judge metric with labels to calibrate on. */
function repeatsJudgements(config: AgentConfig): boolean {
  const metrics = [
    ...(config.evaluations?.metrics ?? []),
    ...(config.test_cases ?? []).flatMap((testCase) => [
      ...(testCase.metrics ?? []),
      ...(testCase.turns ?? []).flatMap((turn) => turn.metrics ?? []),
    ]),
  ];
  return metrics.some(
    (metric) =>
      (metric.type === 'g-eval' && metric.samples > 1) ||
      ('calibration' in metric && typeof metric.calibration === 'string'),
  );
}

export function checkStartupRules(config: AgentConfig): StartupRuleResult {
  const result: StartupRuleResult = { issues: [], warnings: [] };
  if (config.embedding_provider?.provider === 'anthropic') {
    result.issues.push({
      path: ['embedding_provider', 'provider'],
      message: 'provider anthropic cannot be an embedding_provider: it has no embeddings API',
      hint: 'use openai, azure_openai or ollama',
    });
  }
  // Judges answer at temperature 0 so that re-runs agree; only the repeats of a judgement (g-eval
  // samples > 1, the samples of holodeck judge calibrate) use evaluations.model.temperature.
  if (config.evaluations?.model?.temperature !== undefined && !repeatsJudgements(config)) {
    result.issues.push({
      path: ['evaluations', 'model', 'temperature'],
      message:
        'the judge answers at temperature 0 (so re-runs agree) and uses evaluations.model.temperature only for repeated judgements, which no metric makes: it would have no effect',
      hint: 'remove it, or give a g-eval metric samples: 3 (or a judge metric a calibration file) to repeat judgements at this temperature',
    });
  }
  if (config.embedding_provider?.temperature !== undefined) {
    result.issues.push({
      path: ['embedding_provider', 'temperature'],
      message: 'an embedding model has no temperature; embedding_provider.temperature would have no effect',
      hint: 'remove it',
    });
  }
  return result;
}
