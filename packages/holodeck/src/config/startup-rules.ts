import type { FieldIssue } from 'yaml-diagnostics';
import type { FieldWarning } from './field-warning.js';
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
export function checkStartupRules(config: AgentConfig): StartupRuleResult {
  const result: StartupRuleResult = { issues: [], warnings: [] };
  if (config.embedding_provider?.provider === 'anthropic') {
    result.issues.push({
      path: ['embedding_provider', 'provider'],
      message: 'provider anthropic cannot be an embedding_provider: it has no embeddings API',
      hint: 'use openai, azure_openai or ollama',
    });
  }
  // Judges answer at temperature 0 so that re-runs agree; an embedding model has no temperature.
  if (config.evaluations?.model?.temperature !== undefined) {
    result.issues.push({
      path: ['evaluations', 'model', 'temperature'],
      message:
        'the judge always answers at temperature 0 (so re-runs agree); evaluations.model.temperature would have no effect',
      hint: "remove it; for several judge answers use the metric's samples",
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
