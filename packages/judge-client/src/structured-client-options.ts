import { z } from 'zod';
import type { AnswerUsage } from './answer-usage.js';
import { type FailFunction, failWith } from './judge-client-error.js';
import { JUDGE_PROVIDERS, type JudgeProvider } from './judge-provider.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, RetryPolicySchema } from './retry-policy.js';

/** The environment credentials and base URLs are read from. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Which model to ask and where: the provider-neutral model settings (HoloDeck's `model:` shape). */
export interface ModelSettings {
  provider: JudgeProvider;
  /** Model name, e.g. `claude-sonnet-4-6`, `gpt-4o`, `llama3.1`. For azure_openai, the deployment when `deployment` is unset. */
  model: string;
  /**
   * Base URL. anthropic: default `ANTHROPIC_BASE_URL`, else https://api.anthropic.com; openai: default
   * `OPENAI_BASE_URL`, else https://api.openai.com/v1; azure_openai: required
   * (https://<resource>.openai.azure.com); ollama: default http://localhost:11434.
   */
  endpoint?: string | undefined;
  /** The secret; default from the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY, AZURE_OPENAI_API_KEY). */
  apiKey?: string | undefined;
  /** azure_openai only: the `api-version` query parameter; default DEFAULT_AZURE_API_VERSION (provider-defaults.ts). */
  apiVersion?: string | undefined;
  /** azure_openai only: the deployment name; default `model`. */
  deployment?: string | undefined;
  /** openai only: sent as `OpenAI-Organization`. */
  organization?: string | undefined;
}

/** Options of `createStructuredClient()`: model settings, limits and the retry policy. */
export interface StructuredClientOptions extends ModelSettings, Partial<RetryPolicy> {
  /** Where credentials and base URLs are read from; default `process.env`. */
  env?: Environment | undefined;
  /** Most tokens of the answer; default 4096 (a verdict may list every claim of an answer). */
  maxTokens?: number | undefined;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * How messages name the `apiKey` option to the user, e.g. `api_key of evaluations.model`;
   * default `the apiKey option`.
   */
  apiKeyLabel?: string | undefined;
  /**
   * Told the tokens of every answer the provider billed (an answer whose tool input is then
   * refused too: it was paid for), e.g. to count the calls against a cost budget.
   */
  onUsage?: ((usage: AnswerUsage) => void) | undefined;
}

/** Default most tokens of an answer. */
export const DEFAULT_MAX_TOKENS = 4096;

const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });
const text = z.string().trim().min(1, 'must not be empty');

const OptionsSchema = z.object({
  provider: z.enum(JUDGE_PROVIDERS, { error: `expected one of ${JUDGE_PROVIDERS.join(', ')}` }),
  model: text,
  endpoint: httpUrl.optional(),
  apiKey: z.string().optional(),
  apiVersion: text.optional(),
  deployment: text.optional(),
  organization: text.optional(),
  maxTokens: z.int().positive().optional(),
  apiKeyLabel: text.optional(),
  ...RetryPolicySchema.shape,
});

/** Options after validation, with every default applied. */
export interface ResolvedOptions {
  settings: ModelSettings;
  env: Environment;
  maxTokens: number;
  fetch: typeof globalThis.fetch;
  apiKeyLabel: string;
  policy: RetryPolicy;
}

/**
 * Validates the options once, at the edge: a bad provider, URL or limit throws a JudgeClientError
 * (`configuration`) listing every problem.
 */
export function resolveOptions(options: StructuredClientOptions): ResolvedOptions {
  const fail: FailFunction = failWith(options.apiKey?.trim() ?? '');
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || '(options)'}: ${issue.message}`)
      .join('; ');
    throw fail(`invalid judge model settings: ${problems}`, { code: 'configuration' });
  }
  const data = parsed.data;
  const apiKey = data.apiKey?.trim();
  return {
    settings: {
      provider: data.provider,
      model: data.model,
      ...(data.endpoint === undefined ? {} : { endpoint: data.endpoint }),
      ...(apiKey ? { apiKey } : {}),
      ...(data.apiVersion === undefined ? {} : { apiVersion: data.apiVersion }),
      ...(data.deployment === undefined ? {} : { deployment: data.deployment }),
      ...(data.organization === undefined ? {} : { organization: data.organization }),
    },
    env: options.env ?? process.env,
    maxTokens: data.maxTokens ?? DEFAULT_MAX_TOKENS,
    fetch: options.fetch ?? globalThis.fetch,
    apiKeyLabel: data.apiKeyLabel ?? 'the apiKey option',
    policy: {
      timeoutMs: data.timeoutMs ?? DEFAULT_RETRY_POLICY.timeoutMs,
      maxRetries: data.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
      retryDelayMs: data.retryDelayMs ?? DEFAULT_RETRY_POLICY.retryDelayMs,
      maxRetryDelayMs: data.maxRetryDelayMs ?? DEFAULT_RETRY_POLICY.maxRetryDelayMs,
    },
  };
}
