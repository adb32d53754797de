import type { LoadedAgent } from '../config/index.js';
import { ConfigError } from '../errors.js';
import { ClaudeBackend } from './claude/claude-backend.js';
import type { AgentBackend } from './contract/index.js';

/**
 * Routes an agent to the backend for its `model.provider`. Only Anthropic runs today (natively
 * on the Claude Agent SDK); the other providers validate but have no backend yet.
 */
export function selectBackend(agent: LoadedAgent): AgentBackend {
  const provider = agent.config.model.provider;
  if (provider === 'anthropic') return new ClaudeBackend(agent);
  throw new ConfigError([
    {
      file: agent.file,
      path: 'model.provider',
      message: `provider "${provider}" is valid but has no backend in this version of HoloDeck`,
      hint: 'use provider: anthropic (runs on the Claude Agent SDK); other providers come in a later release',
    },
  ]);
}
