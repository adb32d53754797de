/** The name the model sees for a tool of an MCP server, the same spelling as on the Claude backend. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}
