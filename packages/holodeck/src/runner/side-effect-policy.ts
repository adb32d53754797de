import { backendProfile } from '../backends/select-backend.js';
import type { LoadedAgent } from '../config/index.js';

export interface SideEffectPlan {
  /** The agent as the tests run it (side-effect tools off unless allowed). */
  agent: LoadedAgent;
  /** A message for the user when something was turned off, or copies are made. */
  notice?: string;
  /** True when each attempt must get its own copy of the working directory. */
  isolateWorkingDirectory: boolean;
  /** The folder the agent works in (what a per-attempt copy replaces). */
  workingDirectory: string;
}

/**
 * Unattended tests must not change the machine: Bash, file writes and edits are disabled unless
 * `--allow-side-effects`; with it, each attempt runs in its own copy of the working directory.
 */
export function planSideEffects(agent: LoadedAgent, allowSideEffects: boolean): SideEffectPlan {
  const profile = backendProfile(agent.config.model.provider).sideEffects(agent);
  const { capabilities, workingDirectory } = profile;
  if (!capabilities.length) return { agent, isolateWorkingDirectory: false, workingDirectory };
  if (allowSideEffects) {
    return {
      agent,
      isolateWorkingDirectory: true,
      workingDirectory,
      notice: `side effects allowed (${capabilities.join(', ')}): each test case runs in its own copy of the working directory`,
    };
  }
  const disabled = profile.withoutSideEffects();
  return {
    agent: disabled,
    isolateWorkingDirectory: false,
    workingDirectory,
    notice: `${capabilities.join(', ')} disabled for this test run; pass --allow-side-effects to enable (each case then gets its own copy of the working directory)`,
  };
}
