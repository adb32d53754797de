// How a tool's name is spelt at run time: `mcp__<server>__<tool>` for a tool of an MCP server
// (agent.yaml's function and retrieval tools are served by the in-process `holodeck_tools`
// server on the Claude backend), a bare name for a built-in. One copy of the parsing.

/** Name of the in-process MCP server that carries agent.yaml's function and retrieval tools. */
export const FUNCTION_TOOLS_SERVER = 'holodeck_tools';

export type { ToolKind } from './execution-result.js';

/** The name the model sees for a tool of an MCP server: `mcp__<server>__<tool>`. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** The runtime name of an agent.yaml function (or retrieval) tool on the Claude backend. */
export function functionToolName(tool: string): string {
  return mcpToolName(FUNCTION_TOOLS_SERVER, tool);
}

/** Splits `mcp__server__tool` into its parts; undefined for built-in names. */
export function parseMcpToolName(name: string): { server: string; tool: string } | undefined {
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  return match?.[1] && match[2] ? { server: match[1], tool: match[2] } : undefined;
}

/** The server of `mcp__<server>` or `mcp__<server>__...` (an allowed_tools entry may name a whole server). */
export function mcpServerOf(entry: string): { server: string; rest: string } | undefined {
  const match = /^mcp__(.+?)(__.*)?$/.exec(entry);
  return match?.[1] === undefined ? undefined : { server: match[1], rest: match[2] ?? '' };
}

/** The name agent.yaml gives a called tool: an MCP tool's name after `mcp__<server>__`. */
export function shortToolName(name: string): string {
  return parseMcpToolName(name)?.tool ?? name;
}

/** A function tool's name without the `mcp__holodeck_tools__` prefix; any other name as it is. */
export function withoutFunctionToolsPrefix(name: string): string {
  const parsed = parseMcpToolName(name);
  return parsed?.server === FUNCTION_TOOLS_SERVER ? parsed.tool : name;
}

/** Whether `name` is a tool of MCP server `server` (`mcp__<server>__<tool>`, tool not empty). */
export function isToolOfServer(name: string, server: string): boolean {
  const prefix = `mcp__${server}__`;
  return name.startsWith(prefix) && name.length > prefix.length;
}
