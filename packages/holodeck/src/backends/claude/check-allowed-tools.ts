import { closestMatch, suggestionHint } from 'yaml-diagnostics';
import type { AgentConfig } from '../../config/index.js';
import { isToolOfServer, mcpServerOf } from '../../tool-name.js';
import type { BackendIssue } from '../contract/index.js';
import { enabledBuiltinTools } from './build-sdk-options.js';
import { FUNCTION_TOOLS_SERVER as IN_PROCESS_SERVER } from './tool-names.js';

/** Each built-in Claude Code tool and the setting that enables it. */
const BUILTIN_SETTING: Record<string, string> = {
  Read: 'claude.file_system.read: true',
  Glob: 'claude.file_system.read: true',
  Grep: 'claude.file_system.read: true',
  Write: 'claude.file_system.write: true',
  Edit: 'claude.file_system.edit: true',
  Bash: 'claude.bash.enabled: true',
  WebSearch: 'claude.web_search: true',
  WebFetch: 'claude.web_search: true',
  Agent: 'claude.subagents.enabled: true',
};

/**
 * Every `claude.allowed_tools` entry must name an enabled built-in or a configured tool: a short
 * name (a retrieval tool's is `<name>_search`), `mcp__holodeck_tools__<name>` for in-process
 * tools, or for an MCP server `mcp__<server>`,
 * `mcp__<server>__*` or `mcp__<server>__<tool>` (remote tool names are only known at runtime).
 */
export function checkAllowedTools(config: AgentConfig): BackendIssue[] {
  const allowed = config.claude?.allowed_tools;
  if (!allowed) return [];
  const builtins = enabledBuiltinTools(config.claude);
  const tools = config.tools ?? [];
  const servers = tools.filter((tool) => tool.type === 'mcp').map((tool) => tool.name);
  // In-process tools as the model sees them: function tools by name, retrieval tools as <name>_search.
  const inProcess = tools.flatMap((tool) =>
    tool.type === 'function' ? [tool.name] : tool.type === 'mcp' ? [] : [`${tool.name}_search`],
  );
  const retrieval = new Set(
    tools.filter((tool) => tool.type !== 'function' && tool.type !== 'mcp').map((tool) => tool.name),
  );
  const exact = new Set([
    ...builtins,
    ...servers,
    ...inProcess,
    ...inProcess.map((name) => `mcp__${IN_PROCESS_SERVER}__${name}`),
    ...(inProcess.length > 0 ? [`mcp__${IN_PROCESS_SERVER}`, `mcp__${IN_PROCESS_SERVER}__*`] : []),
    ...servers.flatMap((server) => [`mcp__${server}`, `mcp__${server}__*`]),
  ]);
  const issues: BackendIssue[] = [];
  allowed.forEach((entry, index) => {
    if (exact.has(entry)) return;
    if (servers.some((server) => isToolOfServer(entry, server))) return;
    const path = ['claude', 'allowed_tools', index];
    const retrievalName = /^(?:mcp__.+?__)?(.+)$/.exec(entry)?.[1] ?? entry;
    if (retrieval.has(retrievalName)) {
      issues.push({
        code: 'allowed-tool-retrieval-name',
        path,
        message: `"${entry}" names retrieval tool ${retrievalName}, which the model calls as ${retrievalName}_search`,
        hint: `list "${retrievalName}_search" (or "mcp__${IN_PROCESS_SERVER}__${retrievalName}_search")`,
      });
      return;
    }
    const setting = BUILTIN_SETTING[entry];
    if (setting !== undefined) {
      issues.push({
        code: 'allowed-tool-not-enabled',
        path,
        message: `"${entry}" is a built-in tool that this configuration does not enable`,
        hint: `enable it with ${setting}, or remove it from allowed_tools`,
      });
      return;
    }
    const known = [...exact].filter((name) => !name.endsWith('__*'));
    issues.push({
      code: 'allowed-tool-unknown',
      path,
      message: `unknown tool "${entry}" in claude.allowed_tools`,
      hint: unknownToolHint(entry, known, servers, inProcess),
    });
  });
  return issues;
}

/** For `mcp__<server>__<tool>` with a misspelt server, suggest the same id with the closest server. */
function unknownToolHint(entry: string, known: string[], servers: string[], inProcess: string[]): string {
  if (known.length === 0) {
    return 'no tools are enabled: enable a built-in under claude (file_system, bash, web_search, subagents) or add tools';
  }
  const mcp = mcpServerOf(entry);
  const allServers = [...servers, ...(inProcess.length > 0 ? [IN_PROCESS_SERVER] : [])];
  if (mcp !== undefined && !allServers.includes(mcp.server)) {
    const server = closestMatch(mcp.server, allServers);
    if (server !== undefined) return `did you mean "mcp__${server}${mcp.rest}"?`;
  }
  return suggestionHint(entry, known, 'known tools');
}
