import type { AgentConfig } from '../config/index.js';
import type { ToolKind } from '../execution-result.js';
import { isToolOfServer, withoutFunctionToolsPrefix } from '../tool-name.js';

/**
 * The kind of each tool a backend runs, from agent.yaml: function tools and retrieval tools
 * (`<name>_search`) by their name (bare on the AI SDK backend, `mcp__holodeck_tools__<name>` on
 * Claude), an MCP server's tools as `mcp__<server>__<tool>`, anything else a runtime built-in.
 * Both backends stamp each ToolCall with it, so readers of a run need not guess from names.
 */
export function toolKindsOf(config: AgentConfig): (runtimeName: string) => ToolKind {
  const tools = config.tools ?? [];
  const functions = new Set(tools.flatMap((tool) => (tool.type === 'function' ? [tool.name] : [])));
  const retrieval = new Set(
    tools.flatMap((tool) =>
      tool.type === 'vectorstore' || tool.type === 'hierarchical_document' ? [`${tool.name}_search`] : [],
    ),
  );
  const servers = tools.flatMap((tool) => (tool.type === 'mcp' ? [tool.name] : []));
  return (runtimeName) => {
    const name = withoutFunctionToolsPrefix(runtimeName);
    if (retrieval.has(name)) return 'retrieval';
    if (functions.has(name)) return 'function';
    if (servers.some((server) => isToolOfServer(runtimeName, server))) return 'mcp';
    return 'builtin';
  };
}
