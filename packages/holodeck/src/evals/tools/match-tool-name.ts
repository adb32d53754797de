/**
 * Whether an expectation's tool name names a call. Names match exactly: the runtime name
 * (`Read`, `mcp__server__tool`) or, for MCP tools, the short name after `mcp__server__`.
 * Never by substring: `lookup` does not match `lookup_order`.
 */
export function matchesToolName(expected: string, calledName: string): boolean {
  if (expected === calledName) return true;
  const short = /^mcp__.+?__(.+)$/.exec(calledName)?.[1];
  return short !== undefined && expected === short;
}
