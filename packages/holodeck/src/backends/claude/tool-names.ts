import { parseMcpToolName } from '../../tool-name.js';

export { FUNCTION_TOOLS_SERVER, parseMcpToolName } from '../../tool-name.js';

/** Built-in Claude Code tools each agent.yaml capability turns on. */
export const BUILTIN_TOOLS_BY_CAPABILITY = {
  read: ['Read', 'Glob', 'Grep'],
  write: ['Write'],
  edit: ['Edit'],
  bash: ['Bash'],
  web: ['WebSearch', 'WebFetch'],
  subagents: ['Agent'],
} as const;

/** Tools the CLI adds itself for features HoloDeck turned on (structured output). */
export const RUNTIME_TOOLS = new Set(['StructuredOutput']);

/**
 * Whether `toolName` (as the runtime spells it) is named by one `allowed_tools` entry.
 * Entries match exactly: a built-in name, a full `mcp__server__tool` name, a tool's short name,
 * or a whole server as `mcp__server` / `mcp__server__*`. Never by substring.
 */
export function allowedToolsEntryMatches(entry: string, toolName: string): boolean {
  if (entry === toolName) return true;
  const parsed = parseMcpToolName(toolName);
  if (!parsed) return false;
  return entry === parsed.tool || entry === `mcp__${parsed.server}` || entry === `mcp__${parsed.server}__*`;
}
