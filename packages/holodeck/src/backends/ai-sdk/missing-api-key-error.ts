import type { Provider } from '../../config/index.js';
import { CredentialError } from '../../errors.js';

/** What a user reads when a provider's API key is nowhere to be found. */
export function describeMissingApiKey(provider: Provider, variable: string): string {
  return (
    `provider ${provider} needs an API key, but ${variable} is not set. ` +
    'Set it in the environment, in .env next to agent.yaml or in ~/.holodeck/.env, or set model.api_key in agent.yaml.'
  );
}

/**
 * A CredentialError (exit code, `missing`) for the AI SDK providers, whose keys are chosen by
 * `model.provider` rather than by an Anthropic `auth_provider`, so the message says so.
 */
export class MissingApiKeyError extends CredentialError {
  constructor(provider: Provider, variable: string) {
    super(provider, [variable], '');
    this.message = describeMissingApiKey(provider, variable);
  }
}
