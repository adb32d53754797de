import type { AgentToolNames } from '../backends/contract/index.js';
import { backendProfile } from '../backends/select-backend.js';
import type { AgentConfig } from '../config/index.js';
import { isToolOfServer } from '../tool-name.js';

/** The tools an agent has, as expectations may name them (its backend knows their spellings). */
export function knownToolNames(config: AgentConfig): AgentToolNames {
  return backendProfile(config.model.provider).toolNames(config);
}

/** Whether an expectation's tool name can name one of the agent's tools. */
export function isKnownToolName(name: string, known: ReturnType<typeof knownToolNames>): boolean {
  if (known.names.has(name)) return true;
  // Remote MCP tool names are only known at run time: the full mcp__<server>__<tool> form is required.
  return known.mcpServers.some((server) => isToolOfServer(name, server));
}

/** How to describe the agent's tools in an error message. */
export function describeKnownTools(known: ReturnType<typeof knownToolNames>): string {
  const listed = [...known.names, ...known.mcpServers.map((server) => `mcp__${server}__<tool>`)];
  return listed.length ? `the agent has: ${listed.join(', ')}` : 'the agent has no tools';
}
