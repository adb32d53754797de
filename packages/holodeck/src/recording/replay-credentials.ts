import type { LoadedAgent } from '../config/index.js';

/** What stands in for a key in a replayed run: never sent anywhere (replay makes no live request). */
export const REPLAY_PLACEHOLDER_KEY = 'holodeck-replay-no-key';

/** Credential variables of the agent's model, the judges and the embeddings, on every provider. */
const CREDENTIAL_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'OPENAI_API_KEY',
  'AZURE_OPENAI_API_KEY',
] as const;

/**
 * The agent with placeholder credentials: a replayed run needs no key (CI without secrets), and a
 * real key present is replaced too, so it cannot reach even the loopback recorder.
 */
export function withReplayCredentials(agent: LoadedAgent): LoadedAgent {
  const placeholders = Object.fromEntries(CREDENTIAL_VARIABLES.map((name) => [name, REPLAY_PLACEHOLDER_KEY]));
  const env = { ...agent.env, ...placeholders };
  delete env.ANTHROPIC_AUTH_TOKEN;
  return { ...agent, env };
}
