import type { FieldPath } from 'yaml-diagnostics';
import type { AgentConfig, WarningCode } from '../../config/index.js';
import type { BackendChecks } from '../contract/index.js';

/** Model fields that only one provider reads, and that provider. */
const PROVIDER_ONLY_FIELDS = [
  { field: 'organization', provider: 'openai' },
  { field: 'deployment', provider: 'azure_openai' },
  { field: 'api_version', provider: 'azure_openai' },
] as const;

/** The observability settings present in agent.yaml, as paths; none of them is exported by this backend. */
function observabilitySettings(config: AgentConfig): string[] {
  const observability = config.observability;
  if (!observability) return [];
  const exporters = observability.exporters ?? {};
  return [
    ...(observability.enabled ? ['observability.enabled'] : []),
    ...(observability.service_name !== undefined ? ['observability.service_name'] : []),
    ...(observability.traces !== undefined ? ['observability.traces'] : []),
    ...(observability.metrics !== undefined ? ['observability.metrics'] : []),
    ...(observability.logs !== undefined ? ['observability.logs'] : []),
    ...Object.keys(exporters)
      .filter((name) => exporters[name as keyof typeof exporters] !== undefined)
      .map((name) => `observability.exporters.${name}`),
  ];
}

/**
 * The AI SDK backend's startup rules (providers openai, azure_openai, ollama), over a schema-valid
 * config: settings it ignores are warnings, features it cannot run yet are errors.
 */
export async function checkAiSdkConfig(config: AgentConfig): Promise<BackendChecks> {
  const result: BackendChecks = { issues: [], warnings: [] };
  const provider = config.model.provider;
  const warn = (code: WarningCode, fieldPath: FieldPath, message: string): void => {
    result.warnings.push({ code, path: fieldPath, message });
  };

  if (config.claude !== undefined) {
    warn(
      'claude-block-ignored',
      ['claude'],
      `the claude block only applies to provider anthropic and is ignored for provider ${provider}.`,
    );
  }
  if (config.model.auth_provider !== undefined) {
    warn(
      'auth-provider-ignored',
      ['model', 'auth_provider'],
      `auth_provider only applies to provider anthropic and is ignored for provider ${provider}.`,
    );
  }
  for (const { field, provider: owner } of PROVIDER_ONLY_FIELDS) {
    if (config.model[field] !== undefined && provider !== owner) {
      warn(
        'model-field-ignored',
        ['model', field],
        `model.${field} only applies to provider ${owner} and is ignored for provider ${provider}.`,
      );
    }
  }
  if (config.tool_filtering !== undefined) {
    warn(
      'tool-filtering-unsupported',
      ['tool_filtering'],
      `tool_filtering is not supported for provider ${provider} yet and will be skipped: the model is offered every tool.`,
    );
  }
  const observability = observabilitySettings(config);
  if (observability.length > 0) {
    warn(
      'observability-unsupported',
      ['observability'],
      `the AI SDK backend (provider ${provider}) exports no telemetry in chat and test, so these observability settings are ignored there: ${observability.join(', ')} (holodeck serve exports a span per turn and per tool call from observability.traces, and turn metrics from observability.metrics, to exporters.otlp).`,
    );
  }

  // Retrieval tools: sources, record fields, database (tools/retrieval, no network).
  if (
    (config.tools ?? []).some((tool) => tool.type === 'vectorstore' || tool.type === 'hierarchical_document')
  ) {
    const { checkRetrievalTools } = await import('../../tools/retrieval/check-retrieval-tools.js');
    result.issues.push(...(await checkRetrievalTools(config)));
  }
  return result;
}
