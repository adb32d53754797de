import { stat } from 'node:fs/promises';
import path from 'node:path';
import { checkAllowedTools } from './check-allowed-tools.js';
import type { FieldIssue, FieldPath, FieldWarning } from './field-issue.js';
import type { AgentConfig } from './schema/agent-config-schema.js';

/** What the startup rules found: errors that stop the agent, and warnings that let it run. */
export interface StartupRuleResult {
  issues: FieldIssue[];
  warnings: FieldWarning[];
}

/**
 * Rules across fields, checked once the config is valid (paths already absolute). The claude-only
 * rules apply when provider is anthropic, because otherwise the claude block is ignored (warned).
 */
export async function checkStartupRules(config: AgentConfig): Promise<StartupRuleResult> {
  const result: StartupRuleResult = { issues: [], warnings: [] };
  const anthropic = config.model.provider === 'anthropic';
  const warn = (code: string, fieldPath: FieldPath, message: string): void => {
    result.warnings.push({ code, path: fieldPath, message });
  };

  // 1. Claude has no embeddings API: search tools need another provider for their embeddings.
  const searchTool = (config.tools ?? []).findIndex(
    (tool) => tool.type === 'vectorstore' || tool.type === 'hierarchical_document',
  );
  if (anthropic && searchTool !== -1 && config.embedding_provider === undefined) {
    const tool = config.tools?.[searchTool];
    result.issues.push({
      path: ['tools', searchTool],
      message: `tool "${tool?.name}" (${tool?.type}) needs embeddings, and provider anthropic has no embeddings API`,
      hint: 'add an embedding_provider, e.g. embedding_provider: {provider: openai, name: text-embedding-3-small}',
    });
  }
  if (config.embedding_provider?.provider === 'anthropic') {
    result.issues.push({
      path: ['embedding_provider', 'provider'],
      message: 'provider anthropic cannot be an embedding_provider: it has no embeddings API',
      hint: 'use openai, azure_openai or ollama',
    });
  }

  // 2. Tool filtering is an in-process feature of the other backend.
  if (anthropic && config.tool_filtering !== undefined) {
    warn(
      'tool-filtering-unsupported',
      ['tool_filtering'],
      'tool_filtering is not supported for provider: anthropic and will be skipped. Configure claude.allowed_tools instead.',
    );
  }

  // 3 and 3b. Claude-only settings on another provider.
  if (!anthropic && config.claude !== undefined) {
    warn(
      'claude-block-ignored',
      ['claude'],
      `the claude block only applies to provider anthropic and is ignored for provider ${config.model.provider}.`,
    );
  }
  if (!anthropic && config.model.auth_provider !== undefined) {
    warn(
      'auth-provider-ignored',
      ['model', 'auth_provider'],
      `auth_provider only applies to provider anthropic and is ignored for provider ${config.model.provider}.`,
    );
  }
  if (!anthropic) return result;

  // 4. A CLAUDE.md in the working directory is project guidance the CLI may add to the prompt.
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

  // 5. Observability settings the Claude Code CLI's OpenTelemetry export has no equivalent for.
  const observability = config.observability;
  const unsupported = [
    observability?.exporters?.azure_monitor !== undefined ? 'exporters.azure_monitor' : undefined,
    observability?.exporters?.prometheus !== undefined ? 'exporters.prometheus' : undefined,
    observability?.traces?.redaction_patterns !== undefined ? 'traces.redaction_patterns' : undefined,
    observability?.traces?.sample_rate !== undefined ? 'traces.sample_rate' : undefined,
    observability?.logs?.filter_namespaces !== undefined ? 'logs.filter_namespaces' : undefined,
  ].filter((field) => field !== undefined);
  if (unsupported.length > 0) {
    warn(
      'observability-unsupported',
      ['observability'],
      `the Claude backend cannot honour these observability settings, so they are ignored: ${unsupported.map((field) => `observability.${field}`).join(', ')}.`,
    );
  }

  // 7. Full autonomy must be confirmed in writing.
  if (config.claude?.permission_mode === 'acceptAll' && config.claude.acknowledge_accept_all !== true) {
    result.issues.push({
      path: ['claude', 'permission_mode'],
      message:
        'permission_mode acceptAll lets the agent run every enabled tool (shell, file writes and edits, web, MCP and function tools) without asking for approval',
      hint: 'to confirm, add acknowledge_accept_all: true under claude; otherwise use permission_mode: acceptEdits or manual',
    });
  }

  result.issues.push(...checkAllowedTools(config));
  return result;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
