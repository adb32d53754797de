import { fileURLToPath } from 'node:url';
import type { CanUseTool, McpServerConfig, Options, PermissionMode } from '@anthropic-ai/claude-agent-sdk';
import type { ClaudeConfig, LoadedAgent, McpToolConfig } from '../../config/index.js';
import { functionToolName } from '../../tool-name.js';
import type { BackendWarning } from '../contract/index.js';
import { blankedCredentials } from './auth-requirements.js';
import type { ToolGuardPolicy } from './build-tool-guard.js';
import { allowedToolsEntryMatches, BUILTIN_TOOLS_BY_CAPABILITY } from './tool-names.js';

const PERMISSION_MODES: Record<ClaudeConfig['permission_mode'], PermissionMode> = {
  manual: 'default',
  acceptEdits: 'acceptEdits',
  acceptAll: 'bypassPermissions',
};

/** Everything about the SDK options that does not change from one query to the next. */
export interface SdkOptionsPlan {
  /** Options without per-query parts (in-process MCP server instance, resume, partial messages). */
  options: Options;
  /**
   * Names of the in-process tools offered to the model (after allowed_tools): function tools,
   * and retrieval tools as `<name>_search`.
   */
  functionToolNames: string[];
  /** Limits enforced by PreToolUse hooks; hooks hold per-run state, so they are built per query. */
  guardPolicy: ToolGuardPolicy;
  warnings: BackendWarning[];
}

export interface SdkOptionsInput {
  agent: LoadedAgent;
  env: Record<string, string>;
  claudeBinary: string;
}

/** Built-in tools agent.yaml turns on; nothing else is offered to the model. */
export function enabledBuiltinTools(claude: ClaudeConfig | undefined): string[] {
  const tools: string[] = [];
  if (claude?.file_system?.read) tools.push(...BUILTIN_TOOLS_BY_CAPABILITY.read);
  if (claude?.file_system?.write) tools.push(...BUILTIN_TOOLS_BY_CAPABILITY.write);
  if (claude?.file_system?.edit) tools.push(...BUILTIN_TOOLS_BY_CAPABILITY.edit);
  if (claude?.bash?.enabled) tools.push(...BUILTIN_TOOLS_BY_CAPABILITY.bash);
  if (claude?.web_search) tools.push(...BUILTIN_TOOLS_BY_CAPABILITY.web);
  if (claude?.subagents?.enabled) tools.push(...BUILTIN_TOOLS_BY_CAPABILITY.subagents);
  return tools;
}

// A plain JS file outside src/ and dist/, at the same relative place from both.
const CWD_LAUNCHER = fileURLToPath(new URL('../../../bin/mcp-cwd-launcher.js', import.meta.url));

function mcpServerConfig(tool: McpToolConfig): McpServerConfig {
  const timeout = tool.request_timeout * 1000;
  if (tool.transport === 'stdio') {
    const command = tool.command ?? '';
    const args = tool.args ?? [];
    const launch = tool.cwd
      ? { command: process.execPath, args: [CWD_LAUNCHER, tool.cwd, command, ...args] }
      : { command, args };
    return {
      type: 'stdio',
      ...launch,
      env: { ...blankedCredentials(), ...tool.env },
      timeout,
      alwaysLoad: true,
    };
  }
  return {
    type: tool.transport,
    url: tool.url ?? '',
    headers: tool.headers ?? {},
    timeout,
    alwaysLoad: true,
  };
}

/** Built-in tools with side effects: they follow permission_mode instead of being approved up front. */
const SIDE_EFFECT_TOOLS = new Set(['Write', 'Edit', 'Bash']);

/**
 * Whether the CLI's permission prompt for this tool is one a person must answer: the side-effect
 * built-ins permission_mode did not pre-approve (the CLI only asks for those). Tools the author
 * declared in agent.yaml (function and MCP tools, read-only and web built-ins, subagents) are approved.
 */
export function needsApproval(toolName: string): boolean {
  return SIDE_EFFECT_TOOLS.has(toolName);
}

/** Why a call needs approval, for the approval prompt. */
export function approvalReason(permissionMode: ClaudeConfig['permission_mode']): string {
  return `claude.permission_mode: ${permissionMode}`;
}

/** The refusal the model receives when nobody can approve a call. */
export function unapprovableMessage(
  toolName: string,
  permissionMode: ClaudeConfig['permission_mode'],
): string {
  return (
    `${toolName} needs approval under claude.permission_mode: ${permissionMode}, and nobody can approve it in this run. ` +
    'Run `holodeck chat` on a terminal to approve it, or set permission_mode to acceptEdits (auto-approves file edits) or acceptAll in agent.yaml.'
  );
}

/**
 * Answers the CLI's permission prompts in a run that has no operator. Tools the author declared
 * in agent.yaml (function and MCP tools, read-only and web built-ins, subagents) are approved;
 * a side-effect tool that permission_mode did not pre-approve is refused with how to allow it.
 * Which tools may be called at all is decided earlier, by the PreToolUse guard.
 */
function approveDeclaredTools(permissionMode: ClaudeConfig['permission_mode']): CanUseTool {
  return async (toolName, input) => {
    if (!needsApproval(toolName)) return { behavior: 'allow', updatedInput: input };
    return { behavior: 'deny', message: unapprovableMessage(toolName, permissionMode) };
  };
}

/**
 * Translates a loaded agent.yaml into Claude Agent SDK options, least privilege first:
 * built-in tools only as enabled, thinking explicitly off unless enabled, no filesystem
 * settings unless `setting_sources` lists them, only the MCP servers agent.yaml declares.
 */
export function buildSdkOptions({ agent, env, claudeBinary }: SdkOptionsInput): SdkOptionsPlan {
  const { config } = agent;
  const claude = config.claude;
  const permissionMode = claude?.permission_mode ?? 'manual';
  const maxTurns = config.max_turns ?? claude?.max_turns;
  const allowedTools = claude?.allowed_tools;
  const isListed = (name: string) =>
    !allowedTools || allowedTools.some((entry) => allowedToolsEntryMatches(entry, name));
  const warnings: BackendWarning[] = [];

  const builtins = enabledBuiltinTools(claude).filter(isListed);
  const functionToolNames = (config.tools ?? [])
    .flatMap((tool) =>
      tool.type === 'function'
        ? [tool.name]
        : tool.type === 'vectorstore' || tool.type === 'hierarchical_document'
          ? [`${tool.name}_search`]
          : [],
    )
    .filter((name) => isListed(functionToolName(name)));
  const mcpTools = (config.tools ?? []).filter((tool): tool is McpToolConfig => tool.type === 'mcp');

  const thinking = claude?.extended_thinking?.enabled
    ? ({ type: 'enabled', budgetTokens: claude.extended_thinking.budget_tokens } as const)
    : ({ type: 'disabled' } as const);

  const options: Options = {
    model: config.model.name,
    systemPrompt: agent.instructions,
    tools: builtins,
    permissionMode: PERMISSION_MODES[permissionMode],
    ...(permissionMode === 'acceptAll' ? { allowDangerouslySkipPermissions: true } : {}),
    ...(permissionMode !== 'acceptAll' ? { canUseTool: approveDeclaredTools(permissionMode) } : {}),
    // Runs nobody watches decline MCP elicitation; a chat's session answers it (claude-session.ts).
    onElicitation: async () => ({ action: 'decline' }),
    settingSources: claude?.setting_sources ?? [],
    strictMcpConfig: true,
    mcpServersDelivery: 'initialize',
    thinking,
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    cwd: claude?.working_directory ?? agent.directory,
    mcpServers: Object.fromEntries(mcpTools.map((tool) => [tool.name, mcpServerConfig(tool)])),
    ...(agent.responseFormat ? { outputFormat: { type: 'json_schema', schema: agent.responseFormat } } : {}),
    env,
    pathToClaudeCodeExecutable: claudeBinary,
  };
  const guardPolicy: ToolGuardPolicy = {
    ...(allowedTools ? { allowedTools } : {}),
    ...(claude?.bash?.enabled
      ? { bash: { excludedCommands: claude.bash.excluded_commands, allowUnsafe: claude.bash.allow_unsafe } }
      : {}),
    ...(claude?.subagents?.enabled ? { maxParallelSubagents: claude.subagents.max_parallel } : {}),
  };
  return { options, functionToolNames, guardPolicy, warnings };
}
