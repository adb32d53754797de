import { z } from 'zod';
import { addConfigIssue } from './add-config-issue.js';

/** Model vendors HoloDeck can run. `anthropic` runs natively on the Claude Agent SDK. */
export const ProviderSchema = z.enum(['anthropic', 'openai', 'azure_openai', 'ollama']);
/** A model vendor name. */
export type Provider = z.infer<typeof ProviderSchema>;

/** How the Claude backend authenticates. Only meaningful for provider anthropic. */
export const AuthProviderSchema = z.enum(['api_key', 'oauth_token', 'bedrock', 'vertex', 'foundry']);
/** An authentication method of the Anthropic provider. */
export type AuthProvider = z.infer<typeof AuthProviderSchema>;

/** Endpoint URLs must be http(s); other schemes cannot reach a model API. */
export const HttpUrlSchema = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });

/** Default endpoint of a local Ollama server, applied when `endpoint` is not set. */
export const OLLAMA_DEFAULT_ENDPOINT = 'http://localhost:11434';

/**
 * A model: `model`, `embedding_provider` and `evaluations.model` all use this shape.
 * Endpoint fields are validated now and used by a later (non-Anthropic) backend.
 */
export const LLMProviderSchema = z
  .strictObject({
    provider: ProviderSchema.describe('Model vendor. anthropic runs on the Claude Agent SDK.'),
    name: z.string().min(1).describe('Model name, e.g. claude-sonnet-4-6 or gpt-4o.'),
    temperature: z.number().min(0).max(2).optional().describe('0..2 (0..1 for anthropic).'),
    max_tokens: z
      .int()
      .positive()
      .optional()
      .describe('Most tokens of one model response (the CLI: CLAUDE_CODE_MAX_OUTPUT_TOKENS).'),
    auth_provider: AuthProviderSchema.optional().describe(
      'Authentication of the anthropic provider; default api_key. Ignored (with a warning) for others.',
    ),
    endpoint: HttpUrlSchema.optional().describe(
      'API endpoint. Required for azure_openai; ollama defaults to http://localhost:11434.',
    ),
    api_key: z
      .string()
      .min(1)
      .optional()
      .describe(
        'API key of a non-anthropic provider; better left to its environment variable (or a substituted variable).',
      ),
    api_version: z.string().min(1).optional().describe('Azure OpenAI API version.'),
    deployment: z.string().min(1).optional().describe('Azure OpenAI deployment name.'),
    organization: z.string().min(1).optional().describe('OpenAI organization id.'),
  })
  .superRefine((model, context) => {
    if (model.provider === 'anthropic' && model.temperature !== undefined && model.temperature > 1) {
      addConfigIssue(
        context,
        ['temperature'],
        `must be between 0 and 1 for provider anthropic, got ${model.temperature}`,
        'Anthropic models accept a temperature from 0 to 1',
      );
    }
    if (model.provider === 'azure_openai' && model.endpoint === undefined) {
      addConfigIssue(
        context,
        ['endpoint'],
        'missing required key "endpoint" for provider azure_openai',
        'add endpoint: https://<your-resource>.openai.azure.com',
      );
    }
  });

/** A model configuration (`model`, `embedding_provider`, `evaluations.model`). */
export type LLMProvider = z.infer<typeof LLMProviderSchema>;
/** The agent's model; same shape as LLMProvider. */
export type ModelConfig = LLMProvider;
