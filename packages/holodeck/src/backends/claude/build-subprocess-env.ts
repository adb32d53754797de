import { modelRequestTimeoutMs } from '../../config/model-request-timeout.js';
import { CredentialError } from '../../errors.js';
import { holodeckVersion } from '../../holodeck-version.js';
import {
  AUTH_REQUIREMENTS,
  type AuthProvider,
  credentialVariables,
  missingCredentials,
} from './auth-requirements.js';

/**
 * Host variables the CLI needs to run at all (find programs, a home for its config, locale,
 * TLS and proxy settings). Nothing else from the host reaches the agent process.
 */
const HOST_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'TZ',
  'SYSTEMROOT',
  'CLAUDE_CONFIG_DIR',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'NO_PROXY',
  'https_proxy',
  'http_proxy',
  'no_proxy',
];

/** The CLI retries failed API calls itself; 2 retries = at most 3 attempts per call. */
const MAX_API_RETRIES = 2;

export interface SubprocessEnvInput {
  /** Merged agent environment (~/.holodeck/.env < agent .env < process env). */
  env: Record<string, string | undefined>;
  authProvider: AuthProvider;
  /** Extra variables computed elsewhere (telemetry, ...). */
  extra?: Record<string, string>;
  /** Running as root with bypassPermissions needs IS_SANDBOX=1 or the CLI exits 1. */
  bypassPermissionsAsRoot?: boolean;
  /** model.max_tokens → CLAUDE_CODE_MAX_OUTPUT_TOKENS. */
  maxOutputTokens?: number;
}

function lowerBound(value: string | undefined, ceiling: number): string {
  const parsed = value === undefined ? Number.NaN : Number.parseInt(value, 10);
  return String(Number.isFinite(parsed) && parsed >= 0 ? Math.min(parsed, ceiling) : ceiling);
}

/**
 * Builds the complete environment of the Claude CLI process. The SDK's `env` option REPLACES
 * the subprocess environment (it is not merged with process.env), so it is built deliberately:
 * host basics, the credentials of the chosen auth provider, and HoloDeck's fixed settings.
 * Throws CredentialError naming every missing variable, before anything is spawned.
 */
export function buildSubprocessEnv(input: SubprocessEnvInput): Record<string, string> {
  const { env, authProvider } = input;
  const missing = missingCredentials(authProvider, env);
  if (missing.length) throw new CredentialError(authProvider, missing, AUTH_REQUIREMENTS[authProvider].hint);

  const result: Record<string, string> = {};
  const copy = (name: string) => {
    const value = env[name];
    if (value !== undefined && value !== '') result[name] = value;
  };
  HOST_VARIABLES.forEach(copy);
  credentialVariables(authProvider).forEach(copy);
  copy('ANTHROPIC_BASE_URL');
  Object.assign(result, AUTH_REQUIREMENTS[authProvider].flags);

  // Our users' runs send nothing anywhere they did not configure: no telemetry, update
  // checks or error reports unless `observability` turns telemetry on (extra, below).
  result.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = '1';
  result.CLAUDE_CODE_MAX_RETRIES = lowerBound(env.CLAUDE_CODE_MAX_RETRIES, MAX_API_RETRIES);
  result.API_TIMEOUT_MS = String(modelRequestTimeoutMs(env));
  result.CLAUDE_AGENT_SDK_CLIENT_APP = `holodeck/${holodeckVersion()}`;
  if (input.maxOutputTokens !== undefined)
    result.CLAUDE_CODE_MAX_OUTPUT_TOKENS = String(input.maxOutputTokens);
  if (input.bypassPermissionsAsRoot) result.IS_SANDBOX = '1';
  Object.assign(result, input.extra ?? {});
  return result;
}

/** Names the variable a user should check when the API rejects the credentials. */
export function credentialHint(authProvider: AuthProvider): string {
  const names = AUTH_REQUIREMENTS[authProvider].required.flat(2);
  return `check ${names.join(' / ')} (auth_provider: ${authProvider})`;
}
