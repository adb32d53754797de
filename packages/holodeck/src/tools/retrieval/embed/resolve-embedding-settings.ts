import { DEFAULT_AZURE_API_VERSION } from 'judge-client/provider-defaults';
import type { LLMProvider, LoadedAgent } from '../../../config/index.js';
import { ConfigError, CredentialError } from '../../../errors.js';

/** Where and how a retrieval tool gets its embeddings. */
export interface EmbeddingSettings {
  provider: 'openai' | 'azure_openai' | 'ollama';
  /** The model name sent (Azure: the deployment), and stored with the index. */
  model: string;
  /** The full URL of the OpenAI-compatible embeddings endpoint. */
  url: string;
  headers: Record<string, string>;
  /** `embedding_dimensions`: requested and required. */
  dimensions?: number;
  /** Which agent.yaml field chose the provider, for messages: `embedding_provider` or `model`. */
  providerField: 'embedding_provider' | 'model';
  /** Secrets scrubbed from error messages. */
  secrets: string[];
}

/** A retrieval tool's own embedding fields. */
export interface EmbeddingFields {
  embedding_model?: string | undefined;
  embedding_dimensions?: number | undefined;
}

/** Default embedding model of each provider when neither the tool nor embedding_provider names one. */
export const DEFAULT_EMBEDDING_MODELS = {
  openai: 'text-embedding-3-small',
  azure_openai: 'text-embedding-3-small',
  ollama: 'nomic-embed-text',
} as const;

const KEY_VARIABLES = { openai: 'OPENAI_API_KEY', azure_openai: 'AZURE_OPENAI_API_KEY' } as const;

/** The embeddings API key is missing: names the variable, like the model's own key error. */
export class EmbeddingCredentialError extends CredentialError {
  constructor(provider: string, variable: string, field: string) {
    super(provider, [variable], '');
    this.message =
      `${field} provider ${provider} needs an API key for embeddings, but ${variable} is not set. ` +
      `Set it in the environment, in .env next to agent.yaml or in ~/.holodeck/.env, or set ${field}.api_key in agent.yaml.`;
  }
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * The embeddings endpoint of a retrieval tool: `embedding_provider`, else (for agents not on
 * provider anthropic) the agent's own model provider; the model is the tool's `embedding_model`,
 * else `embedding_provider.name`, else the provider's default. Keys come from agent.yaml or the
 * agent's environment; a missing one is an EmbeddingCredentialError before any request.
 */
export function resolveEmbeddingSettings(
  agent: LoadedAgent,
  tool: EmbeddingFields,
  toolIndex: number,
): EmbeddingSettings {
  const { config, env } = agent;
  const explicit = config.embedding_provider;
  const providerField = explicit ? 'embedding_provider' : 'model';
  const source: LLMProvider | undefined =
    explicit ?? (config.model.provider !== 'anthropic' ? config.model : undefined);
  if (!source || source.provider === 'anthropic') {
    throw new ConfigError([
      {
        file: agent.file,
        ...(agent.locate ? agent.locate(['tools', toolIndex]) : {}),
        path: `tools[${toolIndex}]`,
        message: 'this retrieval tool needs embeddings, and provider anthropic has no embeddings API',
        hint: 'add an embedding_provider, e.g. embedding_provider: {provider: openai, name: text-embedding-3-small}',
      },
    ]);
  }
  const provider = source.provider;
  const model = tool.embedding_model ?? (explicit ? explicit.name : DEFAULT_EMBEDDING_MODELS[provider]);
  const dimensions = tool.embedding_dimensions !== undefined ? { dimensions: tool.embedding_dimensions } : {};
  const configKey = source.api_key?.trim();
  if (provider === 'ollama') {
    const endpoint = trimSlash(source.endpoint ?? 'http://localhost:11434');
    return {
      provider,
      model,
      url: `${endpoint}/v1/embeddings`,
      headers: configKey ? { authorization: `Bearer ${configKey}` } : {},
      ...dimensions,
      providerField,
      secrets: configKey ? [configKey] : [],
    };
  }
  const variable = KEY_VARIABLES[provider];
  const key = configKey || env[variable]?.trim();
  if (!key) throw new EmbeddingCredentialError(provider, variable, providerField);
  if (provider === 'azure_openai') {
    const endpoint = trimSlash(source.endpoint ?? '');
    // An embeddings deployment is named after its model unless embedding_provider says otherwise.
    const deployment = tool.embedding_model ?? explicit?.deployment ?? model;
    return {
      provider,
      model: deployment,
      url: `${endpoint}/openai/deployments/${encodeURIComponent(deployment)}/embeddings?api-version=${encodeURIComponent(source.api_version ?? DEFAULT_AZURE_API_VERSION)}`,
      headers: { 'api-key': key },
      ...dimensions,
      providerField,
      secrets: [key],
    };
  }
  const base = trimSlash(source.endpoint ?? (env.OPENAI_BASE_URL?.trim() || 'https://api.openai.com/v1'));
  return {
    provider,
    model,
    url: `${base}/embeddings`,
    headers: {
      authorization: `Bearer ${key}`,
      ...(source.organization ? { 'openai-organization': source.organization } : {}),
    },
    ...dimensions,
    providerField,
    secrets: [key],
  };
}
