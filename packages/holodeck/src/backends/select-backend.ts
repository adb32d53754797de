import type { AgentConfig, LoadedAgent, Provider, StartupRuleResult } from '../config/index.js';
import { AiSdkBackend } from './ai-sdk/ai-sdk-backend.js';
import { aiSdkProfile } from './ai-sdk/ai-sdk-profile.js';
import { ClaudeBackend } from './claude/claude-backend.js';
import { claudeProfile } from './claude/claude-profile.js';
import type { AgentBackend, BackendOptions, BackendProfile } from './contract/index.js';

/**
 * The one place a backend is constructed, and the only file outside a backend's folder that
 * imports from it (a test over the import graph enforces both). Anthropic agents run natively on
 * the Claude Agent SDK; every other provider (openai, azure_openai, ollama) on the AI SDK backend.
 * Neither constructor loads its model SDK: that happens in `initialize()`.
 */
export function selectBackend(agent: LoadedAgent, options: BackendOptions = {}): AgentBackend {
  return agent.config.model.provider === 'anthropic'
    ? new ClaudeBackend(agent, options)
    : new AiSdkBackend(agent, options);
}

/** The static facts of the backend that runs `provider` (startup rules, tool names, side effects). */
export function backendProfile(provider: Provider): BackendProfile {
  return provider === 'anthropic' ? claudeProfile : aiSdkProfile;
}

/** The startup rules of the agent's backend, for `loadAgentConfig`'s `checkBackendConfig`. */
export function checkBackendConfig(config: AgentConfig): Promise<StartupRuleResult> {
  return backendProfile(config.model.provider).checkConfig(config);
}
