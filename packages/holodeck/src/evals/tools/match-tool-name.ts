/**
 * Whether an expectation's tool name names a call. Names match exactly: the runtime name
 * (`Read`, `mcp__server__tool`) or, for MCP tools, the short name after `mcp__server__`.
 * Never by substring: `lookup` does not match `lookup_order`.
 */
export function matchesToolName(expected: string, calledName: string): boolean {
  return expected === calledName || expected === shortToolName(calledName);
}

/** The name agent.yaml gives a called tool: an MCP tool's name after `mcp__<server>__`. */
export function shortToolName(calledName: string): string {
  return /^mcp__.+?__(.+)$/.exec(calledName)?.[1] ?? calledName;
}
