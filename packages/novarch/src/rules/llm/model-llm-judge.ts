import {
  createStructuredClient,
  type Environment,
  type JudgeProvider,
  redactSecret,
  type StructuredClient,
} from 'judge-client';
import { errorMessage } from '../../support.js';
import { buildRuleVerdictsRequest } from './build-rule-verdicts-request.js';
import type { LlmJudge, LlmJudgeRequest, LlmRuleVerdict } from './llm-judge.js';
import { allUndecided, readRuleVerdicts } from './read-rule-verdicts.js';

/** Options of the LLM judge; only `model` is needed, and only for providers other than anthropic. */
export interface ModelLlmJudgeOptions {
  /** Default `anthropic`. */
  provider?: JudgeProvider;
  /** Default `claude-sonnet-4-6` for anthropic; required for the other providers. */
  model?: string;
  /**
   * Base URL. anthropic: default `ANTHROPIC_BASE_URL`, else https://api.anthropic.com; openai:
   * default `OPENAI_BASE_URL`, else https://api.openai.com/v1; azure_openai: required; ollama:
   * default http://localhost:11434.
   */
  endpoint?: string;
  /** The same as `endpoint` (its name before other providers were supported). */
  baseUrl?: string;
  /** Default from `env`: ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, CLAUDE_CODE_OAUTH_TOKEN), OPENAI_API_KEY, AZURE_OPENAI_API_KEY. */
  apiKey?: string;
  /** azure_openai: the `api-version`; default that of judge-client. */
  apiVersion?: string;
  /** azure_openai: the deployment; default `model`. */
  deployment?: string;
  /** openai: sent as `OpenAI-Organization`. */
  organization?: string;
  /** Where the key and base URL are read from; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Default 2048. */
  maxTokens?: number;
  /** Per attempt; default 30 000. The agent waits for the judge, so keep this short. */
  timeoutMs?: number;
  /** Retries of 429, 5xx, network errors and timeouts (the server's `x-should-retry` wins); default 1. */
  maxRetries?: number;
  /** Base backoff between retries; default 500. */
  retryDelayMs?: number;
  /** Longest wait between attempts, whatever `retry-after` asks; default 10 000. */
  maxRetryDelayMs?: number;
  /** Longest JSON text of one input or output sent to the model; default 4 000. */
  maxValueChars?: number;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
}

export const DEFAULT_JUDGE_MODEL = 'claude-sonnet-4-6';

/** Variables that may hold a judge credential: scrubbed from unexpected errors too. */
const SECRET_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'OPENAI_API_KEY',
  'AZURE_OPENAI_API_KEY',
];

/**
 * An LlmJudge on any model provider (anthropic, openai, azure_openai, ollama) through
 * judge-client: one forced tool call at temperature 0, the answer validated against the rule
 * verdicts schema. Never throws: a missing key or model, an HTTP or network error, a missing tool
 * call or a malformed answer makes the rules undecided (they hold for an operator), with the reason
 * in the rationale. The key is never part of a rationale.
 */
export class ModelLlmJudge implements LlmJudge {
  readonly provider: JudgeProvider;
  readonly model: string;
  readonly #options: ModelLlmJudgeOptions;
  #client: StructuredClient | undefined;

  constructor(options: ModelLlmJudgeOptions = {}) {
    this.provider = options.provider ?? 'anthropic';
    this.model = options.model ?? (this.provider === 'anthropic' ? DEFAULT_JUDGE_MODEL : '');
    this.#options = options;
  }

  async judge(request: LlmJudgeRequest): Promise<LlmRuleVerdict[]> {
    if (request.rules.length === 0) return [];
    if (this.model.trim() === '') {
      return allUndecided(
        request.rules,
        `the LLM judge has no model: set the model for provider ${this.provider} (judge.model)`,
      );
    }
    try {
      const structured = buildRuleVerdictsRequest(request, {
        maxValueChars: this.#options.maxValueChars ?? 4000,
      });
      const answer = await this.#structuredClient().ask(structured);
      return readRuleVerdicts(answer, request.rules);
    } catch (error) {
      return allUndecided(request.rules, this.#redact(errorMessage(error)));
    }
  }

  /** Made on first use, so a missing key is a held action (with the reason), never a thrown error. */
  #structuredClient(): StructuredClient {
    if (this.#client !== undefined) return this.#client;
    const options = this.#options;
    this.#client = createStructuredClient({
      provider: this.provider,
      model: this.model,
      endpoint: options.endpoint ?? options.baseUrl,
      apiKey: options.apiKey,
      apiVersion: options.apiVersion,
      deployment: options.deployment,
      organization: options.organization,
      env: this.#env(),
      maxTokens: options.maxTokens ?? 2048,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 1,
      retryDelayMs: options.retryDelayMs ?? 500,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 10_000,
      fetch: options.fetch,
    });
    return this.#client;
  }

  #env(): Environment {
    return this.#options.env ?? process.env;
  }

  /** judge-client already scrubs its messages; this covers anything unexpected on the way. */
  #redact(text: string): string {
    const env = this.#env();
    const secrets = [this.#options.apiKey, ...SECRET_VARIABLES.map((name) => env[name])];
    return secrets.reduce<string>((scrubbed, secret) => redactSecret(scrubbed, secret?.trim() ?? ''), text);
  }
}
