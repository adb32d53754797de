/** Auth providers the Claude backend supports (agent.yaml `model.auth_provider`). */
export type AuthProvider = 'api_key' | 'oauth_token' | 'bedrock' | 'vertex' | 'foundry';

/**
 * What each auth provider needs in the CLI's environment. `required` entries are alternatives
 * groups: each inner list is satisfied when ALL its variables are set, and a group passes when
 * ANY of its alternatives does. `passthrough` variables are copied when present.
 */
export interface AuthRequirement {
  required: string[][][];
  passthrough: string[];
  flags: Record<string, string>;
  hint: string;
}

export const AUTH_REQUIREMENTS: Record<AuthProvider, AuthRequirement> = {
  api_key: {
    required: [[['ANTHROPIC_API_KEY']]],
    passthrough: [],
    flags: {},
    hint: 'Set it in the environment, in .env next to agent.yaml, or in ~/.holodeck/.env.',
  },
  oauth_token: {
    required: [[['CLAUDE_CODE_OAUTH_TOKEN']]],
    passthrough: [],
    flags: {},
    hint: 'Create one with `claude setup-token`, then set it in the environment or a .env file.',
  },
  bedrock: {
    required: [
      [['AWS_REGION']],
      [['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'], ['AWS_PROFILE'], ['AWS_BEARER_TOKEN_BEDROCK']],
    ],
    passthrough: [
      'AWS_SESSION_TOKEN',
      'ANTHROPIC_BEDROCK_BASE_URL',
      'AWS_CONFIG_FILE',
      'AWS_SHARED_CREDENTIALS_FILE',
    ],
    flags: { CLAUDE_CODE_USE_BEDROCK: '1' },
    hint: 'Amazon Bedrock needs AWS_REGION and credentials (AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or AWS_BEARER_TOKEN_BEDROCK).',
  },
  vertex: {
    required: [[['CLOUD_ML_REGION']], [['ANTHROPIC_VERTEX_PROJECT_ID']]],
    passthrough: ['GOOGLE_APPLICATION_CREDENTIALS', 'ANTHROPIC_VERTEX_BASE_URL', 'CLOUDSDK_CONFIG'],
    flags: { CLAUDE_CODE_USE_VERTEX: '1' },
    hint: 'Google Vertex AI needs CLOUD_ML_REGION and ANTHROPIC_VERTEX_PROJECT_ID, plus application-default credentials (GOOGLE_APPLICATION_CREDENTIALS).',
  },
  foundry: {
    required: [
      [['ANTHROPIC_FOUNDRY_API_KEY']],
      [['ANTHROPIC_FOUNDRY_RESOURCE'], ['ANTHROPIC_FOUNDRY_BASE_URL']],
    ],
    passthrough: [],
    flags: { CLAUDE_CODE_USE_FOUNDRY: '1' },
    hint: 'Microsoft Foundry needs ANTHROPIC_FOUNDRY_API_KEY and ANTHROPIC_FOUNDRY_RESOURCE (or ANTHROPIC_FOUNDRY_BASE_URL).',
  },
};

/** Returns the variable names a user still has to set; an unmet alternatives group names its first option. */
export function missingCredentials(
  provider: AuthProvider,
  env: Record<string, string | undefined>,
): string[] {
  const missing: string[] = [];
  for (const group of AUTH_REQUIREMENTS[provider].required) {
    const satisfied = group.some((alternative) => alternative.every((name) => Boolean(env[name])));
    if (!satisfied) {
      const first = group[0] ?? [];
      const unset = first.filter((name) => !env[name]);
      const others = group.slice(1).map((alternative) => alternative.join(' + '));
      missing.push(others.length ? `${unset.join(' + ')} (or ${others.join(', or ')})` : unset.join(', '));
    }
  }
  return missing;
}

/** Every variable an auth provider may read, for copying into the CLI environment. */
export function credentialVariables(provider: AuthProvider): string[] {
  const requirement = AUTH_REQUIREMENTS[provider];
  return [...new Set([...requirement.required.flat(2), ...requirement.passthrough])];
}

/**
 * Every credential variable of every provider, blanked. The CLI starts stdio MCP servers with
 * its own environment plus the server's `env`, so without this each MCP server would receive
 * the model credentials. A value the user sets in the tool's `env` still wins.
 */
export function blankedCredentials(): Record<string, string> {
  const names = (Object.keys(AUTH_REQUIREMENTS) as AuthProvider[]).flatMap(credentialVariables);
  return Object.fromEntries(names.map((name) => [name, '']));
}
