import type { ModelConfig } from '../../config/index.js';

/** The environment variable that holds each provider's API key when agent.yaml has no `model.api_key`. */
export const API_KEY_VARIABLES = {
  openai: 'OPENAI_API_KEY',
  azure_openai: 'AZURE_OPENAI_API_KEY',
} as const;

/** Where a run's API key comes from, so messages can name it (never its value). */
export interface ApiKeySource {
  /** The key itself; undefined when neither agent.yaml nor the environment has one. */
  apiKey: string | undefined;
  /** `model.api_key in agent.yaml`, or the variable that holds it (`OPENAI_API_KEY`). */
  origin: string;
  /** The variable a user sets to provide the key; undefined for providers that need none (ollama). */
  variable: string | undefined;
}

/**
 * Finds the API key of the agent's model: `model.api_key`, else the provider's variable in the
 * agent's environment (`agent.env`: ~/.holodeck/.env < .env next to agent.yaml < process env).
 * Ollama needs no key; an `api_key` written for it (a proxy in front of Ollama) is still sent.
 */
export function findApiKey(
  model: ModelConfig,
  env: Readonly<Record<string, string | undefined>>,
): ApiKeySource {
  const fromConfig = model.api_key?.trim();
  const variable =
    model.provider === 'openai' || model.provider === 'azure_openai'
      ? API_KEY_VARIABLES[model.provider]
      : undefined;
  if (fromConfig) return { apiKey: fromConfig, origin: 'model.api_key in agent.yaml', variable };
  const fromEnv = variable ? env[variable]?.trim() : undefined;
  return {
    apiKey: fromEnv || undefined,
    origin: variable ?? 'model.api_key in agent.yaml',
    variable,
  };
}

/** The variable a run would need but cannot find, or undefined when the key is there (or none is needed). */
export function missingApiKeyVariable(
  model: ModelConfig,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const source = findApiKey(model, env);
  return source.apiKey === undefined ? source.variable : undefined;
}
