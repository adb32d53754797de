import { describe, expect, it } from 'vitest';
import { buildSubprocessEnv } from '../../../src/backends/claude/build-subprocess-env.js';
import { CredentialError, UsageError } from '../../../src/errors.js';

const host = {
  PATH: '/usr/bin',
  HOME: '/home/u',
  AWS_SECRET_ACCESS_KEY: 'leak-me-not',
  GITHUB_TOKEN: 'ghp_secret',
};

describe('buildSubprocessEnv', () => {
  it('passes the API key and host basics, and nothing else from the host', () => {
    const env = buildSubprocessEnv({ env: { ...host, ANTHROPIC_API_KEY: 'sk-1' }, authProvider: 'api_key' });
    expect(env.ANTHROPIC_API_KEY).toBe('sk-1');
    expect(env.PATH).toBe('/usr/bin');
    expect(env.GITHUB_TOKEN).toBeUndefined();
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC).toBe('1');
    expect(env.CLAUDE_CODE_MAX_RETRIES).toBe('2');
    expect(env.API_TIMEOUT_MS).toBe('120000');
  });

  it('passes API_TIMEOUT_MS on when it is a whole number of milliseconds, and refuses anything else', () => {
    const base = { ...host, ANTHROPIC_API_KEY: 'k' };
    expect(
      buildSubprocessEnv({ env: { ...base, API_TIMEOUT_MS: ' 45000 ' }, authProvider: 'api_key' })
        .API_TIMEOUT_MS,
    ).toBe('45000');
    for (const value of ['two minutes', '-5', '0', '1e3'])
      expect(() =>
        buildSubprocessEnv({ env: { ...base, API_TIMEOUT_MS: value }, authProvider: 'api_key' }),
      ).toThrow(
        new UsageError(
          'API_TIMEOUT_MS',
          `needs a whole number of milliseconds ≥ 1, got "${value}"`,
          'unset it for the default of 120000 (2 minutes)',
        ),
      );
  });

  it('never raises the retry count above 2 but lets users lower it', () => {
    const base = { ...host, ANTHROPIC_API_KEY: 'k' };
    expect(
      buildSubprocessEnv({ env: { ...base, CLAUDE_CODE_MAX_RETRIES: '10' }, authProvider: 'api_key' })
        .CLAUDE_CODE_MAX_RETRIES,
    ).toBe('2');
    expect(
      buildSubprocessEnv({ env: { ...base, CLAUDE_CODE_MAX_RETRIES: '0' }, authProvider: 'api_key' })
        .CLAUDE_CODE_MAX_RETRIES,
    ).toBe('0');
  });

  it('honours ANTHROPIC_BASE_URL', () => {
    const env = buildSubprocessEnv({
      env: { ...host, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' },
      authProvider: 'api_key',
    });
    expect(env.ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:9');
  });

  it('names the missing variable without leaking values', () => {
    const attempt = () => buildSubprocessEnv({ env: host, authProvider: 'api_key' });
    expect(attempt).toThrow(CredentialError);
    expect(attempt).toThrow(
      'auth_provider "api_key" needs ANTHROPIC_API_KEY but it is not set. Set it in the environment, in .env next to agent.yaml, or in ~/.holodeck/.env.',
    );
  });

  it('oauth_token uses CLAUDE_CODE_OAUTH_TOKEN', () => {
    expect(() => buildSubprocessEnv({ env: host, authProvider: 'oauth_token' })).toThrow(
      /needs CLAUDE_CODE_OAUTH_TOKEN/,
    );
    const env = buildSubprocessEnv({
      env: { ...host, CLAUDE_CODE_OAUTH_TOKEN: 't' },
      authProvider: 'oauth_token',
    });
    expect(env.CLAUDE_CODE_OAUTH_TOKEN).toBe('t');
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
  });

  it('bedrock names each missing group and sets the provider flag', () => {
    expect(() => buildSubprocessEnv({ env: { PATH: '/bin' }, authProvider: 'bedrock' })).toThrow(
      'auth_provider "bedrock" needs AWS_REGION, AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (or AWS_PROFILE, or AWS_BEARER_TOKEN_BEDROCK)',
    );
    const env = buildSubprocessEnv({
      env: { ...host, AWS_REGION: 'us-east-1', AWS_PROFILE: 'p' },
      authProvider: 'bedrock',
    });
    expect(env.CLAUDE_CODE_USE_BEDROCK).toBe('1');
    expect(env.AWS_PROFILE).toBe('p');
    expect(env.AWS_SECRET_ACCESS_KEY).toBe('leak-me-not');
  });

  it('vertex and foundry set their flags', () => {
    const vertex = buildSubprocessEnv({
      env: { CLOUD_ML_REGION: 'us-east5', ANTHROPIC_VERTEX_PROJECT_ID: 'p' },
      authProvider: 'vertex',
    });
    expect(vertex.CLAUDE_CODE_USE_VERTEX).toBe('1');
    expect(() =>
      buildSubprocessEnv({ env: { ANTHROPIC_FOUNDRY_API_KEY: 'k' }, authProvider: 'foundry' }),
    ).toThrow(/needs ANTHROPIC_FOUNDRY_RESOURCE \(or ANTHROPIC_FOUNDRY_BASE_URL\)/);
    const foundry = buildSubprocessEnv({
      env: { ANTHROPIC_FOUNDRY_API_KEY: 'k', ANTHROPIC_FOUNDRY_RESOURCE: 'r' },
      authProvider: 'foundry',
    });
    expect(foundry.CLAUDE_CODE_USE_FOUNDRY).toBe('1');
  });

  it('sets IS_SANDBOX only for bypassPermissions as root', () => {
    const base = { env: { ...host, ANTHROPIC_API_KEY: 'k' }, authProvider: 'api_key' as const };
    expect(buildSubprocessEnv(base).IS_SANDBOX).toBeUndefined();
    expect(buildSubprocessEnv({ ...base, bypassPermissionsAsRoot: true }).IS_SANDBOX).toBe('1');
  });
});
