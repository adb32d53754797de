import { enabledBuiltinTools } from '../backends/claude/build-sdk-options.js';
import type { AgentConfig } from '../config/index.js';

/** The tools an agent has, as expectations may name them; MCP servers as `mcp__<server>__*`. */
export function knownToolNames(config: AgentConfig): { names: Set<string>; mcpServers: string[] } {
  const names = new Set<string>(enabledBuiltinTools(config.claude));
  const mcpServers: string[] = [];
  for (const tool of config.tools ?? []) {
    if (tool.type === 'function') {
      names.add(tool.name);
      names.add(`mcp__holodeck_tools__${tool.name}`);
    } else if (tool.type === 'mcp') {
      mcpServers.push(tool.name);
    }
  }
  return { names, mcpServers };
}

/** Whether an expectation's tool name can name one of the agent's tools. */
export function isKnownToolName(name: string, known: ReturnType<typeof knownToolNames>): boolean {
  if (known.names.has(name)) return true;
  // Remote MCP tool names are only known at run time: the full mcp__<server>__<tool> form is required.
  return known.mcpServers.some(
    (server) => name.startsWith(`mcp__${server}__`) && name.length > `mcp__${server}__`.length,
  );
}

/** How to describe the agent's tools in an error message. */
export function describeKnownTools(known: ReturnType<typeof knownToolNames>): string {
  const listed = [...known.names, ...known.mcpServers.map((server) => `mcp__${server}__<tool>`)];
  return listed.length ? `the agent has: ${listed.join(', ')}` : 'the agent has no tools';
}
