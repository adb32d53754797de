import { describe, expect, it } from 'vitest';
import {
  instructionsVersion,
  isSecretField,
  REDACTED,
  redactAgentConfig,
  sha256Of,
} from '../../../src/runner/report/redact-agent-config.js';

const env = {
  OPENAI_API_KEY: 'sk-openai-secret-456',
  SERVICE_TOKEN: 'tok-very-secret-123',
  PGPASSWORD: 'pg-pass-789',
  HOME: '/home/dev',
  REGION: 'eu-west-1',
};

describe('redactAgentConfig', () => {
  const config = {
    name: 'support',
    description: 'calls the API with tok-very-secret-123 inside',
    model: { provider: 'openai', name: 'gpt-4o-mini', api_key: 'sk-openai-secret-456', max_tokens: 1024 },
    instructions: { file: '/agents/support/instructions.md' },
    tools: [
      {
        type: 'mcp',
        name: 'crm',
        transport: 'http',
        url: 'https://bot:hunter22@crm.example/mcp',
        headers: { Authorization: 'Bearer whatever', Accept: 'application/json' },
      },
      { type: 'mcp', name: 'files', command: 'npx', env: { ANY: 'value', REGION: 'eu-west-1' } },
      {
        type: 'vectorstore',
        name: 'docs',
        source: '/agents/support/docs',
        database: { provider: 'postgres', connection_string: 'postgres://u:pg-pass-789@db/x' },
      },
    ],
    test_cases: [{ name: 'case', input: 'hi' }],
  };
  const redacted = redactAgentConfig(config, { env, directory: '/agents/support' });

  it('replaces secret fields, header and env values, URL passwords and every credential value', () => {
    const text = JSON.stringify(redacted);
    for (const secret of [
      'sk-openai-secret-456',
      'tok-very-secret-123',
      'pg-pass-789',
      'hunter22',
      'Bearer whatever',
    ])
      expect(text).not.toContain(secret);
    expect(redacted).toMatchObject({
      description: `calls the API with ${REDACTED} inside`,
      model: { api_key: REDACTED, max_tokens: 1024, name: 'gpt-4o-mini' },
      tools: [
        {
          url: `https://bot:${REDACTED}@crm.example/mcp`,
          headers: { Authorization: REDACTED, Accept: REDACTED },
        },
        { env: { ANY: REDACTED, REGION: REDACTED } },
        { database: { connection_string: REDACTED } },
      ],
    });
  });

  it('keeps counts named like secrets, makes paths relative and leaves the test cases out', () => {
    expect(isSecretField('max_tokens')).toBe(false);
    expect(isSecretField('budget_tokens')).toBe(false);
    expect(isSecretField('apiKey')).toBe(true);
    expect(isSecretField('access_token')).toBe(true);
    expect(redacted.instructions).toEqual({ file: './instructions.md' });
    expect(redacted).not.toHaveProperty('test_cases');
  });

  it('hashes the same configuration the same, whatever its key order or folder', () => {
    const elsewhere = JSON.parse(JSON.stringify(config).replaceAll('/agents/support', '/ci/build/support'));
    const moved = redactAgentConfig(elsewhere, { env, directory: '/ci/build/support' });
    const reordered = Object.fromEntries(Object.entries(moved).reverse());
    expect(sha256Of(reordered)).toBe(sha256Of(redacted));
    expect(sha256Of(redacted)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(sha256Of({ ...redacted, name: 'other' })).not.toBe(sha256Of(redacted));
  });
});

describe('instructionsVersion', () => {
  it("reads the front matter's version, and nothing without front matter", () => {
    expect(instructionsVersion('---\ntitle: Support\nversion: "2.1"\n---\nYou are ...')).toBe('2.1');
    expect(instructionsVersion('---\nversion: 7\n---')).toBe('7');
    expect(instructionsVersion('You are ...\nversion: 3')).toBeUndefined();
  });
});
