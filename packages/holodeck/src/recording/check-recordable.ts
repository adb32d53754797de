import type { LoadedAgent } from '../config/index.js';
import { UsageError } from '../errors.js';

/**
 * Auth providers whose requests the CLI sends to a base URL HoloDeck can point at its recorder:
 * ANTHROPIC_BASE_URL. Bedrock, Vertex AI and Foundry requests are signed for the provider's own
 * host (AWS SigV4, Google and Azure credentials), so a recording proxy between them cannot forward
 * them: refused with a message rather than recorded half.
 */
const RECORDABLE_AUTH_PROVIDERS = ['api_key', 'oauth_token'];

/** Throws a UsageError when this agent's model traffic cannot be recorded or replayed. */
export function checkRecordable(agent: LoadedAgent, flag: string): void {
  const { model } = agent.config;
  if (model.provider !== 'anthropic') return;
  const authProvider = model.auth_provider ?? 'api_key';
  if (!RECORDABLE_AUTH_PROVIDERS.includes(authProvider))
    throw new UsageError(
      flag,
      `model.auth_provider ${authProvider} cannot be recorded or replayed: the Claude CLI signs ${authProvider} requests for the provider's own host, so they cannot pass through HoloDeck's recorder`,
      'record with auth_provider api_key (or oauth_token) against the Anthropic API; the recording then replays for any agent file of the same name and provider',
    );
}
