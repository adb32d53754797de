import type { AgentConfig, LoadedAgent, Provider, StartupRuleResult } from '../config/index.js';
import { ConfigError } from '../errors.js';
import { ClaudeBackend } from './claude/claude-backend.js';
import { claudeProfile } from './claude/claude-profile.js';
import type { AgentBackend, BackendOptions, BackendProfile } from './contract/index.js';

/**
 * The one place a backend is constructed, and the only file outside a backend's folder that
 * imports from it (a test over the import graph enforces both). Anthropic agents run natively on
 * the Claude Agent SDK; every other provider on the AI SDK backend.
 */
export function selectBackend(agent: LoadedAgent, options: BackendOptions = {}): AgentBackend {
  const provider = agent.config.model.provider;
  if (provider === 'anthropic') return new ClaudeBackend(agent, options);
  // TEMPORARY until the AI SDK backend lands in this branch.
  throw new ConfigError([
    {
      file: agent.file,
      path: 'model.provider',
      message: `provider "${provider}" is valid but has no backend in this version of HoloDeck`,
      hint: 'use provider: anthropic (runs on the Claude Agent SDK)',
    },
  ]);
}

// TEMPORARY until the AI SDK backend lands in this branch.
const aiSdkProfile: BackendProfile = {
  ...claudeProfile,
  name: 'ai-sdk',
  checkConfig: async (config) => ({
    issues: [],
    warnings: [
      ...(config.claude !== undefined
        ? [
            {
              code: 'claude-block-ignored',
              path: ['claude'],
              message: `the claude block only applies to provider anthropic and is ignored for provider ${config.model.provider}.`,
            },
          ]
        : []),
      ...(config.model.auth_provider !== undefined
        ? [
            {
              code: 'auth-provider-ignored',
              path: ['model', 'auth_provider'],
              message: `auth_provider only applies to provider anthropic and is ignored for provider ${config.model.provider}.`,
            },
          ]
        : []),
    ],
  }),
  credentialWarnings: () => [],
};

/** The static facts of the backend that runs `provider` (startup rules, tool names, side effects). */
export function backendProfile(provider: Provider): BackendProfile {
  return provider === 'anthropic' ? claudeProfile : aiSdkProfile;
}

/** The startup rules of the agent's backend, for `loadAgentConfig`'s `checkBackendConfig`. */
export function checkBackendConfig(config: AgentConfig): Promise<StartupRuleResult> {
  return backendProfile(config.model.provider).checkConfig(config);
}
