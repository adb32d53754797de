import { DEFAULT_AZURE_API_VERSION } from 'judge-client';
import { describe, expect, it } from 'vitest';
import { buildCallSettings } from '../../../../src/backends/ai-sdk/build-call-settings.js';
import * as providerSettings from '../../../../src/backends/ai-sdk/resolve-provider-settings.js';
import { resolveProviderSettings } from '../../../../src/backends/ai-sdk/resolve-provider-settings.js';
import { ConfigError, CredentialError } from '../../../../src/errors.js';
import { agentConfig, loadedAgent } from './loaded-agent-fixture.js';

describe('resolveProviderSettings', () => {
  it("azure_openai: the default api_version is judge-client's, the one place it is set", () => {
    const model = { provider: 'azure_openai', name: 'gpt-4o', endpoint: 'https://res.openai.azure.com' };
    const settings = resolveProviderSettings(loadedAgent({ model }, { AZURE_OPENAI_API_KEY: 'k' }));
    expect(settings).toMatchObject({ apiVersion: '2024-10-21' });
    expect(DEFAULT_AZURE_API_VERSION).toBe('2024-10-21');
    // No copy of its own to drift from the judge's.
    expect(Object.keys(providerSettings)).not.toContain('AZURE_DEFAULT_API_VERSION');
  });

  it('openai: endpoint, then OPENAI_BASE_URL from agent.env, then the OpenAI API', () => {
    const env = { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: 'http://proxy.example/v1/' };
    expect(resolveProviderSettings(loadedAgent({}, env))).toEqual({
      provider: 'openai',
      modelId: 'gpt-4o',
      baseURL: 'http://proxy.example/v1',
      apiKey: 'sk-env',
      secrets: ['sk-env'],
      credentialHint: 'check OPENAI_API_KEY',
    });
    const endpoint = { model: { provider: 'openai', name: 'gpt-4o', endpoint: 'http://own.example/v1' } };
    expect(resolveProviderSettings(loadedAgent(endpoint, env)).baseURL).toBe('http://own.example/v1');
    expect(resolveProviderSettings(loadedAgent({}, { OPENAI_API_KEY: 'k' })).baseURL).toBe(
      'https://api.openai.com/v1',
    );
  });

  it('openai: an OPENAI_BASE_URL that is not an http(s) URL is a ConfigError', () => {
    const agent = loadedAgent({}, { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'localhost:8080' });
    expect(() => resolveProviderSettings(agent)).toThrow(ConfigError);
    expect(() => resolveProviderSettings(agent)).toThrow(
      '1 problem in agent configuration:\n/agents/unit/agent.yaml  model.endpoint: OPENAI_BASE_URL is "localhost:8080", which is not an http(s) URL\n    hint: set OPENAI_BASE_URL to e.g. https://api.openai.com/v1, or set model.endpoint in agent.yaml',
    );
  });

  it('openai: model.api_key wins over OPENAI_API_KEY, and the organization is kept', () => {
    const model = { provider: 'openai', name: 'gpt-4o', api_key: 'sk-yaml', organization: 'org-7' };
    const settings = resolveProviderSettings(loadedAgent({ model }, { OPENAI_API_KEY: 'sk-env' }));
    expect(settings).toMatchObject({
      apiKey: 'sk-yaml',
      organization: 'org-7',
      credentialHint: 'check model.api_key in agent.yaml',
    });
  });

  it('azure_openai: deployment URL base, deployment defaults to the model name, a dated api version', () => {
    const model = { provider: 'azure_openai', name: 'gpt-4o', endpoint: 'https://res.openai.azure.com/' };
    expect(resolveProviderSettings(loadedAgent({ model }, { AZURE_OPENAI_API_KEY: 'az-key' }))).toEqual({
      provider: 'azure_openai',
      deployment: 'gpt-4o',
      baseURL: 'https://res.openai.azure.com/openai',
      apiKey: 'az-key',
      apiVersion: DEFAULT_AZURE_API_VERSION,
      secrets: ['az-key'],
      credentialHint: 'check AZURE_OPENAI_API_KEY',
    });
    const named = { ...model, deployment: 'prod-4o', api_version: '2025-01-01-preview' };
    expect(
      resolveProviderSettings(loadedAgent({ model: named }, { AZURE_OPENAI_API_KEY: 'k' })),
    ).toMatchObject({
      deployment: 'prod-4o',
      apiVersion: '2025-01-01-preview',
    });
  });

  it('ollama: the local default endpoint with /v1, no key needed', () => {
    const settings = resolveProviderSettings(
      loadedAgent({ model: { provider: 'ollama', name: 'llama3.2' } }),
    );
    expect(settings).toEqual({
      provider: 'ollama',
      modelId: 'llama3.2',
      baseURL: 'http://localhost:11434/v1',
      secrets: [],
      credentialHint: 'the server at http://localhost:11434 wants a key: set model.api_key in agent.yaml',
    });
  });

  it('a missing key is a CredentialError naming the variable, before anything runs', () => {
    const attempt = () => resolveProviderSettings(loadedAgent());
    expect(attempt).toThrow(CredentialError);
    expect(attempt).toThrow(
      'provider openai needs an API key, but OPENAI_API_KEY is not set. Set it in the environment, in .env next to agent.yaml or in ~/.holodeck/.env, or set model.api_key in agent.yaml.',
    );
    const azure = { provider: 'azure_openai', name: 'gpt-4o', endpoint: 'https://res.openai.azure.com' };
    try {
      resolveProviderSettings(loadedAgent({ model: azure }, { OPENAI_API_KEY: 'not-this-one' }));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CredentialError);
      expect((error as CredentialError).missing).toEqual(['AZURE_OPENAI_API_KEY']);
      expect((error as CredentialError).name).toBe('CredentialError');
    }
  });
});

describe('buildCallSettings', () => {
  it('maps temperature, max_tokens and max_turns; 20 turns and 3 attempts by default', () => {
    expect(buildCallSettings(agentConfig())).toEqual({
      maxRetries: 2,
      maxTurns: 20,
      providerOptions: { openai: { strictJsonSchema: false }, ollama: { strictJsonSchema: false } },
    });
    const config = agentConfig({
      model: { provider: 'openai', name: 'gpt-4o', temperature: 0.2, max_tokens: 300 },
      max_turns: 4,
    });
    expect(buildCallSettings(config)).toMatchObject({ temperature: 0.2, maxOutputTokens: 300, maxTurns: 4 });
  });
});
