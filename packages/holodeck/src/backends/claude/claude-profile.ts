import type { AgentConfig } from '../../config/index.js';
import type { AgentToolNames, BackendProfile } from '../contract/index.js';
import { enabledBuiltinTools } from './build-sdk-options.js';
import { claudeSideEffects } from './claude-side-effects.js';
import { checkClaudeStartupRules } from './claude-startup-rules.js';
import { credentialWarnings } from './credential-warnings.js';
import { FUNCTION_TOOLS_SERVER } from './tool-names.js';

/** Built-ins as enabled, function tools by short name and as `mcp__holodeck_tools__<name>`. */
function claudeToolNames(config: AgentConfig): AgentToolNames {
  const names = new Set<string>(enabledBuiltinTools(config.claude));
  const mcpServers: string[] = [];
  for (const tool of config.tools ?? []) {
    if (tool.type === 'function') {
      names.add(tool.name);
      names.add(`mcp__${FUNCTION_TOOLS_SERVER}__${tool.name}`);
    } else if (tool.type === 'mcp') {
      mcpServers.push(tool.name);
    } else {
      // Retrieval tools: `<name>_search` in the same in-process server.
      names.add(`${tool.name}_search`);
      names.add(`mcp__${FUNCTION_TOOLS_SERVER}__${tool.name}_search`);
    }
  }
  return { names, mcpServers };
}

/** What the rest of HoloDeck knows of the Claude backend without starting it. */
export const claudeProfile: BackendProfile = {
  name: 'claude',
  // Every run is a Claude Code CLI process.
  agentProcesses: true,
  // The CLI reports each run's cost (its own price table), unless pricing: replaces it.
  unknownCostReason: () => undefined,
  // A session reset is a `/clear` in the same CLI process; a fresh session per case is a new process.
  isolationLevels: ['process', 'session'],
  checkConfig: checkClaudeStartupRules,
  credentialWarnings,
  toolNames: claudeToolNames,
  sideEffects: claudeSideEffects,
};
