import { type AgentConfig, AgentConfigSchema, type LoadedAgent } from '../../../../src/config/index.js';
import { resolveAgentConfig } from '../../../../src/config/resolve-agent-config.js';

/** A schema-valid agent.yaml (as an object) for provider openai unless `model` says otherwise. */
export function agentConfig(overrides: Record<string, unknown> = {}): AgentConfig {
  return resolveAgentConfig(
    AgentConfigSchema.parse({
      name: 'unit-agent',
      model: { provider: 'openai', name: 'gpt-4o' },
      instructions: { inline: 'You are a test agent.' },
      ...overrides,
    }),
    '/agents/unit',
  );
}

/** A LoadedAgent around `agentConfig(overrides)` with the given environment. */
export function loadedAgent(
  overrides: Record<string, unknown> = {},
  env: Record<string, string> = {},
): LoadedAgent {
  return {
    file: '/agents/unit/agent.yaml',
    directory: '/agents/unit',
    config: agentConfig(overrides),
    instructions: 'You are a test agent.',
    env,
    warnings: [],
  };
}
