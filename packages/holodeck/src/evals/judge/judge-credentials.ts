import { JudgeError } from './judge-error.js';

/** How the judge client authenticates: the headers to send and the variable they came from. */
export interface JudgeCredentials {
  headers: Record<string, string>;
  /** The environment variable holding the secret (named in authentication errors). */
  variable: 'ANTHROPIC_API_KEY' | 'CLAUDE_CODE_OAUTH_TOKEN';
  /** The secret itself, so error messages can be scrubbed of it. */
  secret: string;
}

/** Beta flag the Messages API requires for OAuth (Claude subscription) tokens. */
const OAUTH_BETA = 'oauth-2025-04-20';

/**
 * Picks the judge's credentials from `env`: ANTHROPIC_API_KEY first, else CLAUDE_CODE_OAUTH_TOKEN
 * (sent as a bearer token). Throws a JudgeError naming the variable to set when neither is there.
 */
export function resolveJudgeCredentials(env: Readonly<Record<string, string | undefined>>): JudgeCredentials {
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  if (apiKey) {
    return { headers: { 'x-api-key': apiKey }, variable: 'ANTHROPIC_API_KEY', secret: apiKey };
  }
  const oauthToken = env.CLAUDE_CODE_OAUTH_TOKEN?.trim();
  if (oauthToken) {
    return {
      headers: { authorization: `Bearer ${oauthToken}`, 'anthropic-beta': OAUTH_BETA },
      variable: 'CLAUDE_CODE_OAUTH_TOKEN',
      secret: oauthToken,
    };
  }
  throw new JudgeError(
    'the judge model needs credentials: set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN for a Claude subscription)',
    { code: 'credentials-missing', variable: 'ANTHROPIC_API_KEY' },
  );
}

/** Replaces every occurrence of `secret` in `text`, so no error message can leak it. */
export function redactSecret(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('[redacted]');
}
