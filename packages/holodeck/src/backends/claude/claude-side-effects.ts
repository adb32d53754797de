import type { LoadedAgent } from '../../config/index.js';
import type { SideEffectProfile } from '../contract/index.js';

/**
 * The Claude built-ins that change the world outside the conversation (Bash, file writes and
 * edits), and the agent with them off. Function tools and MCP servers are the user's own code.
 */
export function claudeSideEffects(agent: LoadedAgent): SideEffectProfile {
  const claude = agent.config.claude;
  return {
    capabilities: [
      ...(claude?.bash?.enabled ? ['claude.bash'] : []),
      ...(claude?.file_system?.write ? ['claude.file_system.write'] : []),
      ...(claude?.file_system?.edit ? ['claude.file_system.edit'] : []),
    ],
    workingDirectory: claude?.working_directory ?? agent.directory,
    withoutSideEffects: () => ({
      ...agent,
      config: {
        ...agent.config,
        claude: claude && {
          ...claude,
          ...(claude.bash ? { bash: { ...claude.bash, enabled: false } } : {}),
          ...(claude.file_system
            ? { file_system: { ...claude.file_system, write: false, edit: false } }
            : {}),
        },
      },
    }),
  };
}
