import { JudgeClientError } from './judge-client-error.js';
import type { Environment, ModelSettings } from './structured-client-options.js';

/** How a call authenticates: the headers to send and where the secret came from. */
export interface Credentials {
  headers: Record<string, string>;
  /** The environment variable (or option label) holding the secret, named in authentication errors. */
  variable: string;
  /** The secret itself, so every message can be scrubbed of it ('' when there is none). */
  secret: string;
}

/** Beta flag the Messages API requires for OAuth (Claude subscription) tokens. */
const OAUTH_BETA = 'oauth-2025-04-20';

function fromEnv(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/**
 * Picks the credentials of a call. The `apiKey` option wins; else the provider's variable:
 * anthropic `ANTHROPIC_API_KEY` (x-api-key), else `ANTHROPIC_AUTH_TOKEN` (bearer), else
 * `CLAUDE_CODE_OAUTH_TOKEN` (bearer plus the OAuth beta flag); openai `OPENAI_API_KEY` (bearer);
 * azure_openai `AZURE_OPENAI_API_KEY` (`api-key`); ollama needs none. Throws a JudgeClientError
 * (`credentials`) naming the variable to set, before any request.
 */
export function resolveCredentials(
  settings: ModelSettings,
  env: Environment,
  apiKeyLabel: string,
): Credentials {
  const { provider, apiKey } = settings;
  switch (provider) {
    case 'anthropic': {
      if (apiKey) return { headers: { 'x-api-key': apiKey }, variable: apiKeyLabel, secret: apiKey };
      const key = fromEnv(env, 'ANTHROPIC_API_KEY');
      if (key) return { headers: { 'x-api-key': key }, variable: 'ANTHROPIC_API_KEY', secret: key };
      const token = fromEnv(env, 'ANTHROPIC_AUTH_TOKEN');
      if (token) {
        return {
          headers: { authorization: `Bearer ${token}` },
          variable: 'ANTHROPIC_AUTH_TOKEN',
          secret: token,
        };
      }
      const oauth = fromEnv(env, 'CLAUDE_CODE_OAUTH_TOKEN');
      if (oauth) {
        return {
          headers: { authorization: `Bearer ${oauth}`, 'anthropic-beta': OAUTH_BETA },
          variable: 'CLAUDE_CODE_OAUTH_TOKEN',
          secret: oauth,
        };
      }
      throw missing(
        `the judge model (anthropic) needs credentials: set ANTHROPIC_API_KEY or ${apiKeyLabel} ` +
          '(or ANTHROPIC_AUTH_TOKEN for a bearer token, CLAUDE_CODE_OAUTH_TOKEN for a Claude subscription)',
        'ANTHROPIC_API_KEY',
      );
    }
    case 'openai': {
      const [secret, variable] = apiKey
        ? [apiKey, apiKeyLabel]
        : [fromEnv(env, 'OPENAI_API_KEY'), 'OPENAI_API_KEY'];
      if (!secret) {
        throw missing(
          `the judge model (openai) needs an API key: set OPENAI_API_KEY or ${apiKeyLabel}`,
          variable,
        );
      }
      const headers: Record<string, string> = { authorization: `Bearer ${secret}` };
      if (settings.organization !== undefined) headers['openai-organization'] = settings.organization;
      return { headers, variable, secret };
    }
    case 'azure_openai': {
      const [secret, variable] = apiKey
        ? [apiKey, apiKeyLabel]
        : [fromEnv(env, 'AZURE_OPENAI_API_KEY'), 'AZURE_OPENAI_API_KEY'];
      if (!secret) {
        throw missing(
          `the judge model (azure_openai) needs an API key: set AZURE_OPENAI_API_KEY or ${apiKeyLabel}`,
          variable,
        );
      }
      return { headers: { 'api-key': secret }, variable, secret };
    }
    case 'ollama':
      // A local Ollama takes no key; one given anyway is sent as a bearer token (for a proxy in front).
      return apiKey
        ? { headers: { authorization: `Bearer ${apiKey}` }, variable: apiKeyLabel, secret: apiKey }
        : { headers: {}, variable: apiKeyLabel, secret: '' };
  }
}

function missing(message: string, variable: string): JudgeClientError {
  // Nothing to redact: there is no secret.
  return new JudgeClientError(message, { code: 'credentials', variable });
}
