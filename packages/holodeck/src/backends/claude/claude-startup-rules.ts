import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FieldPath } from 'yaml-diagnostics';
import type { AgentConfig, WarningCode } from '../../config/index.js';
import type { BackendChecks } from '../contract/index.js';
import { checkAllowedTools } from './check-allowed-tools.js';
import { mapObservabilityEnv } from './map-observability-env.js';

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

type Warn = (code: WarningCode, fieldPath: FieldPath, message: string) => void;

/** Search tools (their embeddings, their sources) and tool approvals, which Claude does not use. */
async function checkTools(config: AgentConfig, result: BackendChecks): Promise<void> {
  // Claude has no embeddings API: search tools need another provider for their embeddings.
  const searchTool = (config.tools ?? []).findIndex(
    (tool) => tool.type === 'vectorstore' || tool.type === 'hierarchical_document',
  );
  if (searchTool !== -1 && config.embedding_provider === undefined) {
    const tool = config.tools?.[searchTool];
    result.issues.push({
      code: 'embedding-provider-missing',
      path: ['tools', searchTool],
      message: `tool "${tool?.name}" (${tool?.type}) needs embeddings, and provider anthropic has no embeddings API`,
      hint: 'add an embedding_provider, e.g. embedding_provider: {provider: openai, name: text-embedding-3-small}',
    });
  }

  // Retrieval tools: sources, record fields, database (tools/retrieval, no network).
  if (searchTool !== -1) {
    const { checkRetrievalTools } = await import('../../tools/retrieval/check-retrieval-tools.js');
    result.issues.push(...(await checkRetrievalTools(config)));
  }

  // Approvals on Claude follow claude.permission_mode: a tool's approval would have no effect.
  for (const [index, tool] of (config.tools ?? []).entries()) {
    if (!('approval' in tool) || tool.approval === undefined) continue;
    result.issues.push({
      code: 'tool-approval-unused',
      path: ['tools', index, 'approval'],
      message: `tools[${index}].approval is not used by provider anthropic: the Claude CLI asks by claude.permission_mode, and ${tool.type} tools run without asking`,
      hint: 'remove it; on Claude, claude.permission_mode and claude.allowed_tools decide what runs unasked',
    });
  }
}

/** Model settings the Claude Agent SDK has no use for. */
function checkModel(config: AgentConfig, result: BackendChecks, warn: Warn): void {
  // The model's sampling temperature is not a setting of the Claude Agent SDK.
  if (config.model.temperature !== undefined) {
    warn(
      'temperature-unsupported',
      ['model', 'temperature'],
      'model.temperature is not supported by the Claude Agent SDK and is ignored for provider: anthropic.',
    );
  }

  // Settings of the other providers' APIs: the Claude CLI reads its endpoint and key from the env.
  const elsewhere: Record<string, string> = {
    api_key:
      'set ANTHROPIC_API_KEY in the environment or .env (model.auth_provider picks the kind of credential)',
    endpoint: 'set ANTHROPIC_BASE_URL in the environment or .env to use another Messages API endpoint',
    organization: 'organization is an OpenAI setting; remove it',
    deployment: 'deployment is an Azure OpenAI setting; remove it',
    api_version: 'api_version is an Azure OpenAI setting; remove it',
  };
  for (const [field, hint] of Object.entries(elsewhere)) {
    if (config.model[field as keyof typeof config.model] === undefined) continue;
    result.issues.push({
      code: 'model-field-unused',
      path: ['model', field],
      message: `model.${field} is not used by provider anthropic (the Claude Agent SDK), so it would have no effect`,
      hint,
    });
  }
}

/** Tool filtering, and a CLAUDE.md the CLI may add to the prompt. */
async function checkWorkspace(config: AgentConfig, warn: Warn): Promise<void> {
  // Tool filtering is an in-process feature of the other backend.
  if (config.tool_filtering !== undefined) {
    warn(
      'tool-filtering-unsupported',
      ['tool_filtering'],
      'tool_filtering is not supported for provider: anthropic and will be skipped. Configure claude.allowed_tools instead.',
    );
  }

  // A CLAUDE.md in the working directory is project guidance the CLI may add to the prompt.
  const workingDirectory = config.claude?.working_directory;
  if (workingDirectory !== undefined && (await isFile(path.join(workingDirectory, 'CLAUDE.md')))) {
    const loaded = config.claude?.setting_sources.includes('project') ?? false;
    const now = loaded
      ? 'Because claude.setting_sources lists "project", the Claude Code CLI loads it as extra instructions next to agent.yaml\'s instructions.'
      : 'It is not loaded now: the Claude Code CLI reads CLAUDE.md only when claude.setting_sources lists "project", and setting_sources is empty by default.';
    warn(
      'claude-md-present',
      ['claude', 'working_directory'],
      `${path.join(workingDirectory, 'CLAUDE.md')} exists. ${now} To avoid mixed guidance, point claude.working_directory at a narrower folder without a CLAUDE.md, or move that guidance into instructions in agent.yaml.`,
    );
  }
}

/** Observability settings the Claude Code CLI's OpenTelemetry export has no equivalent for. */
function checkObservability(config: AgentConfig, warn: Warn): void {
  const observability = config.observability;
  const unsupported = [
    observability?.exporters?.azure_monitor !== undefined ? 'exporters.azure_monitor' : undefined,
    observability?.exporters?.prometheus !== undefined ? 'exporters.prometheus' : undefined,
    observability?.traces?.redaction_patterns !== undefined ? 'traces.redaction_patterns' : undefined,
    observability?.traces?.sample_rate !== undefined ? 'traces.sample_rate' : undefined,
    observability?.logs?.filter_namespaces !== undefined ? 'logs.filter_namespaces' : undefined,
    ...mapObservabilityEnv(observability).ignored.map((field) => field.replace(/^observability\./, '')),
  ].filter((field) => field !== undefined);
  if (unsupported.length > 0) {
    warn(
      'observability-unsupported',
      ['observability'],
      `the Claude backend cannot honour these observability settings, so they are ignored: ${unsupported.map((field) => `observability.${field}`).join(', ')}.`,
    );
  }
}

/** Full autonomy must be confirmed in writing. */
function checkAcceptAll(config: AgentConfig, result: BackendChecks): void {
  if (config.claude?.permission_mode === 'acceptAll' && config.claude.acknowledge_accept_all !== true) {
    result.issues.push({
      code: 'accept-all-unacknowledged',
      path: ['claude', 'permission_mode'],
      message:
        'permission_mode acceptAll lets the agent run every enabled tool (shell, file writes and edits, web, MCP and function tools) without asking for approval',
      hint: 'to confirm, add acknowledge_accept_all: true under claude; otherwise use permission_mode: acceptEdits or manual',
    });
  }
}

/**
 * The Claude backend's startup rules, over a schema-valid config (paths already absolute):
 * what the Claude Agent SDK and the Claude Code CLI cannot do, or do differently than written.
 */
export async function checkClaudeStartupRules(config: AgentConfig): Promise<BackendChecks> {
  const result: BackendChecks = { issues: [], warnings: [] };
  const warn: Warn = (code, fieldPath, message) => {
    result.warnings.push({ code, path: fieldPath, message });
  };
  await checkTools(config, result);
  checkModel(config, result, warn);
  await checkWorkspace(config, warn);
  checkObservability(config, warn);
  checkAcceptAll(config, result);
  result.issues.push(...checkAllowedTools(config));
  return result;
}
