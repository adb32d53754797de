import { checkGovernanceFilesLazily } from './backends/governance/check-governance-files-lazily.js';
import { checkBackendConfig } from './backends/select-backend.js';
import {
  type AgentValidation,
  type LoadAgentOptions,
  type LoadedAgent,
  loadAgentConfig,
  validateAgentFile,
} from './config/index.js';

/** Options of `loadAgent` and `validateAgent`: config/'s, less what these two inject. */
export type AgentFileOptions = Omit<LoadAgentOptions, 'checkBackendConfig' | 'checkGovernanceFiles'>;

const checks = {
  checkBackendConfig,
  checkGovernanceFiles: checkGovernanceFilesLazily,
} satisfies LoadAgentOptions;

/**
 * Checks agent.yaml the way `chat` and `test` load it: config/'s checks, the startup rules of the
 * agent's backend, and the governance block's files. Never throws for configuration problems.
 */
export function validateAgent(file: string, options: AgentFileOptions = {}): Promise<AgentValidation> {
  return validateAgentFile(file, { ...options, ...checks });
}

/** Loads agent.yaml for running with every check of `validateAgent`; throws one ConfigError. */
export function loadAgent(file: string, options: AgentFileOptions = {}): Promise<LoadedAgent> {
  return loadAgentConfig(file, { ...options, ...checks });
}
