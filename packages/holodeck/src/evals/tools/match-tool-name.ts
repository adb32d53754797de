import { shortToolName } from '../../tool-name.js';
/**
 * Whether an expectation's tool name names a call. Names match exactly: the runtime name
 * (`Read`, `mcp__server__tool`) or, for MCP tools, the short name after `mcp__server__`.
 * Never by substring: `lookup` does not match `lookup_order`.
 */
export function matchesToolName(expected: string, calledName: string): boolean {
  return expected === calledName || expected === shortToolName(calledName);
}

export { shortToolName };
