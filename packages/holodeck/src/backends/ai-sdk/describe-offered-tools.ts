import type { AgentConfig } from '../../config/index.js';
import { mcpToolName } from '../../tool-name.js';
import type { OfferedTool } from '../contract/index.js';

/**
 * The runtime's tool names as `listTools()` reports them: function tools by their short name, and
 * each `mcp__<server>__<tool>` with its agent.yaml server and the tool's own name on it (the
 * longest matching server name wins, so `a` and `a__b` cannot be confused).
 */
export function describeOfferedTools(toolNames: readonly string[], config: AgentConfig): OfferedTool[] {
  const servers = (config.tools ?? [])
    .flatMap((tool) => (tool.type === 'mcp' ? [tool.name] : []))
    .sort((a, b) => b.length - a.length);
  return toolNames.map((name) => {
    const server = servers.find((candidate) => name.startsWith(mcpToolName(candidate, '')));
    if (server === undefined) return { name };
    return { name, mcp: { server, tool: name.slice(mcpToolName(server, '').length) } };
  });
}
