import { DEFAULT_AZURE_API_VERSION } from 'judge-client/provider-defaults';
import type { LoadedAgent } from '../../config/index.js';
import { OLLAMA_DEFAULT_ENDPOINT } from '../../config/index.js';
import { ConfigError, InternalError } from '../../errors.js';
import { findApiKey } from './api-key-source.js';
import { MissingApiKeyError } from './missing-api-key-error.js';

/** OpenAI's own API, used when neither `model.endpoint` nor OPENAI_BASE_URL is set. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

interface CommonSettings {
  /** Base URL the provider appends `/chat/completions` (and its own path parts) to. */
  baseURL: string;
  /** Secrets to scrub from anything shown to the user. */
  secrets: string[];
  /** Names what to check when the API rejects the credentials (401/403). */
  credentialHint: string;
}

/** Everything the AI SDK provider factory needs, resolved from agent.yaml and agent.env. */
export type ProviderSettings = CommonSettings &
  (
    | { provider: 'openai'; modelId: string; apiKey: string; organization?: string }
    | { provider: 'azure_openai'; deployment: string; apiKey: string; apiVersion: string }
    | { provider: 'ollama'; modelId: string; apiKey?: string }
  );

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** OPENAI_BASE_URL from the agent's environment, checked like `model.endpoint` is by the schema. */
function openaiBaseUrlFromEnv(agent: LoadedAgent): string | undefined {
  const value = agent.env.OPENAI_BASE_URL?.trim();
  if (!value) return undefined;
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new ConfigError([
      {
        file: agent.file,
        path: 'model.endpoint',
        message: `OPENAI_BASE_URL is "${value}", which is not an http(s) URL`,
        hint: 'set OPENAI_BASE_URL to e.g. https://api.openai.com/v1, or set model.endpoint in agent.yaml',
      },
    ]);
  }
  return value;
}

/**
 * Resolves the model's endpoint, key and names. Every provider is reached through the
 * OpenAI-compatible Chat Completions API. Variables come from `agent.env` only (never straight
 * from process.env), and a missing key is a CredentialError naming its variable, before any request.
 */
export function resolveProviderSettings(agent: LoadedAgent): ProviderSettings {
  const { model } = agent.config;
  const key = findApiKey(model, agent.env);
  const credentialHint = `check ${key.origin}`;
  const secrets = key.apiKey ? [key.apiKey] : [];
  switch (model.provider) {
    case 'openai': {
      if (!key.apiKey) throw new MissingApiKeyError('openai', key.origin);
      const baseURL = model.endpoint ?? openaiBaseUrlFromEnv(agent) ?? OPENAI_DEFAULT_BASE_URL;
      return {
        provider: 'openai',
        modelId: model.name,
        baseURL: withoutTrailingSlash(baseURL),
        apiKey: key.apiKey,
        ...(model.organization ? { organization: model.organization } : {}),
        secrets,
        credentialHint,
      };
    }
    case 'azure_openai': {
      if (!key.apiKey) throw new MissingApiKeyError('azure_openai', key.origin);
      // The schema requires the endpoint for azure_openai; its absence here is a bug.
      if (!model.endpoint) throw new InternalError('azure_openai without model.endpoint');
      return {
        provider: 'azure_openai',
        deployment: model.deployment ?? model.name,
        // Deployment URLs: {endpoint}/openai/deployments/{deployment}/chat/completions?api-version=...
        baseURL: `${withoutTrailingSlash(model.endpoint)}/openai`,
        apiKey: key.apiKey,
        // Deployment URLs need a dated version, not `v1`: judge-client's default, the one place it is set.
        apiVersion: model.api_version ?? DEFAULT_AZURE_API_VERSION,
        secrets,
        credentialHint,
      };
    }
    case 'ollama': {
      const endpoint = withoutTrailingSlash(model.endpoint ?? OLLAMA_DEFAULT_ENDPOINT);
      return {
        provider: 'ollama',
        modelId: model.name,
        baseURL: `${endpoint}/v1`,
        ...(key.apiKey ? { apiKey: key.apiKey } : {}),
        secrets,
        credentialHint: key.apiKey
          ? credentialHint
          : `the server at ${endpoint} wants a key: set model.api_key in agent.yaml`,
      };
    }
    case 'anthropic':
      throw new InternalError('provider anthropic runs on the Claude backend, not the AI SDK one');
  }
}
