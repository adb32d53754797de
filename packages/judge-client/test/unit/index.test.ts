import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import * as judgeClient from '../../src/index.js';
import * as providerDefaults from '../../src/provider-defaults.js';

describe('judge-client public API', () => {
  it('exports exactly this list, and no internals', () => {
    expect(Object.keys(judgeClient).sort()).toEqual(
      [
        'DEFAULT_AZURE_API_VERSION',
        'DEFAULT_MAX_TOKENS',
        'DEFAULT_RETRY_POLICY',
        'DEFAULT_TOOL_DESCRIPTION',
        'JUDGE_PROVIDERS',
        'JUDGE_TEMPERATURE',
        'JudgeClientError',
        'createStructuredClient',
        'redactSecret',
      ].sort(),
    );
  });

  it('pins the constants callers depend on', () => {
    expect(judgeClient.JUDGE_PROVIDERS).toEqual(['anthropic', 'openai', 'azure_openai', 'ollama']);
    expect(judgeClient.JUDGE_TEMPERATURE).toBe(0);
    expect(judgeClient.DEFAULT_MAX_TOKENS).toBe(4096);
    expect(judgeClient.DEFAULT_AZURE_API_VERSION).toBe('2024-10-21');
    expect(judgeClient.redactSecret('key sk-1 and sk-1', 'sk-1')).toBe('key [redacted] and [redacted]');
    expect(judgeClient.redactSecret('nothing to hide', '')).toBe('nothing to hide');
  });

  it('publishes the provider defaults on their own, without loading the client (judge-client/provider-defaults)', async () => {
    expect({ ...providerDefaults }).toEqual({ DEFAULT_AZURE_API_VERSION: '2024-10-21' });
    expect(judgeClient.DEFAULT_AZURE_API_VERSION).toBe(providerDefaults.DEFAULT_AZURE_API_VERSION);
    const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    expect(manifest.exports['./provider-defaults']).toEqual({
      types: './dist/provider-defaults.d.ts',
      default: './dist/provider-defaults.js',
    });
    const source = await readFile(new URL('../../src/provider-defaults.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^import /m);
  });
});
