import { ConfigError } from '../errors.js';
import type { LoadAgentOptions, LoadedAgent } from './loaded-agent.js';
import { validateAgentFile } from './validate-agent-file.js';

/**
 * Loads agent.yaml for running: parsed, validated, `${VAR}` substituted, referenced files read.
 * Throws one ConfigError carrying every problem found.
 */
export async function loadAgentConfig(file: string, options: LoadAgentOptions = {}): Promise<LoadedAgent> {
  const validation = await validateAgentFile(file, options);
  if (validation.issues.length > 0 || !validation.agent) throw new ConfigError(validation.issues);
  return validation.agent;
}
