import type { ValidateFunction } from 'ajv';
import {
  type AnswerUsage,
  createStructuredClient,
  JUDGE_TEMPERATURE,
  JudgeClientError,
  type JudgeProvider,
  type StructuredClient,
} from 'judge-client';
import { compileUserSchema } from '../../json-schema/create-ajv.js';
import { errorMessage } from '../../support.js';
import type { GradingCall, JudgeClient, JudgeRequest } from '../metric.js';
import { judgeCacheKey, readCachedVerdict, writeCachedVerdict } from './judge-cache.js';
import { JudgeError } from './judge-error.js';

/** Temperature of a request's repeats when evaluations.model sets none. */
export const DEFAULT_SAMPLING_TEMPERATURE = 1;

/** Name of the tool the judge is forced to call; its input is the verdict. */
export const VERDICT_TOOL_NAME = 'submit_verdict';

/** Options of `createJudgeClient()`: the judge model's settings, where verdicts are cached, and limits. */
export interface JudgeClientOptions {
  provider: JudgeProvider;
  /** Judge model, e.g. `claude-sonnet-4-6`, `gpt-4o` (`name` in agent.yaml). */
  model: string;
  /** API base URL (`endpoint`); required for azure_openai. */
  endpoint?: string | undefined;
  /** The key (`api_key`); default from `env` (ANTHROPIC_API_KEY, OPENAI_API_KEY, AZURE_OPENAI_API_KEY). */
  apiKey?: string | undefined;
  /** How messages name `apiKey`; default `evaluations.model.api_key`. */
  apiKeyLabel?: string | undefined;
  /** azure_openai `api_version`. */
  apiVersion?: string | undefined;
  /** azure_openai `deployment`; default the model. */
  deployment?: string | undefined;
  /** openai `organization`. */
  organization?: string | undefined;
  /** Where credentials and base URLs are read from (usually the agent's environment). */
  env: Readonly<Record<string, string | undefined>>;
  /** Directory of cached verdicts (the runner passes `<agent dir>/.holodeck/cache/judge`). No cache when unset. */
  cacheDir?: string | undefined;
  /** Default 4096: RAG verdicts list every claim or statement. */
  maxTokens?: number | undefined;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch | undefined;
  /** Per attempt; default 60 000. */
  timeoutMs?: number | undefined;
  /** Retries of 429, 5xx, network errors and timeouts; default 2. */
  maxRetries?: number | undefined;
  /** Base backoff between retries when the server sends no `retry-after`; default 500. */
  retryDelayMs?: number | undefined;
  /**
   * Temperature of the repeats of a request (`sample` ≥ 1: G-Eval samples, calibration's
   * self-consistency); default 1. The first answer (sample 0) is always at temperature 0, so it is
   * the verdict a single judgement gives; repeats at 0 would copy it on a deterministic judge.
   */
  samplingTemperature?: number | undefined;
  /** Told about problems that do not fail the verdict (a cache file that could not be written). */
  onWarning?: ((message: string) => void) | undefined;
  /** Told the tokens of every answer the provider billed (cached verdicts cost nothing). */
  onUsage?: ((usage: AnswerUsage) => void) | undefined;
}

/** The judge-client error as HoloDeck's JudgeError (same message, code and fields). */
function asJudgeError(error: unknown): unknown {
  if (!(error instanceof JudgeClientError)) return error;
  return new JudgeError(error.message, {
    code: error.code,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.variable === undefined ? {} : { variable: error.variable }),
    cause: error,
  });
}

/**
 * The model a cached verdict belongs to. Anthropic models keep their bare name, so verdicts cached
 * before other providers existed stay valid; others are prefixed with their provider.
 */
function cacheModel(provider: JudgeProvider, model: string): string {
  return provider === 'anthropic' ? model : `${provider}:${model}`;
}

/**
 * A JudgeClient on any provider (anthropic, openai, azure_openai, ollama) through judge-client:
 * the judge must answer by calling `submit_verdict`, whose input schema is the verdict schema, and
 * the verdict is validated with ajv. Verdicts are cached by their full input under `cacheDir`.
 * Throws a JudgeError at once when the settings are unusable or the credentials are missing.
 */
export function createJudgeClient(options: JudgeClientOptions): JudgeClient {
  let client: StructuredClient;
  try {
    client = createStructuredClient({
      provider: options.provider,
      model: options.model,
      endpoint: options.endpoint,
      apiKey: options.apiKey,
      apiKeyLabel: options.apiKeyLabel ?? 'evaluations.model.api_key',
      apiVersion: options.apiVersion,
      deployment: options.deployment,
      organization: options.organization,
      env: options.env,
      maxTokens: options.maxTokens,
      fetch: options.fetch,
      timeoutMs: options.timeoutMs ?? 60_000,
      maxRetries: options.maxRetries ?? 2,
      retryDelayMs: options.retryDelayMs,
      onUsage: options.onUsage,
    });
  } catch (error) {
    throw asJudgeError(error);
  }
  const cachedAs = cacheModel(options.provider, options.model);
  const validators = new Map<string, ValidateFunction>();

  /** Re-checks cached verdicts, which may be hand-edited or stale. */
  function validatorFor(schema: Record<string, unknown>): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = validators.get(key);
    if (validate === undefined) {
      validate = compileUserSchema(schema);
      validators.set(key, validate);
    }
    return validate;
  }

  const samplingTemperature = options.samplingTemperature ?? DEFAULT_SAMPLING_TEMPERATURE;

  const called = { kind: 'judge', provider: options.provider, model: options.model } as const;

  async function judge(
    request: JudgeRequest,
    signal?: AbortSignal,
    onCall?: (call: GradingCall) => void,
  ): Promise<Record<string, unknown>> {
    const temperature = request.sample ? samplingTemperature : JUDGE_TEMPERATURE;
    const key = judgeCacheKey({
      model: cachedAs,
      system: request.system,
      prompt: request.prompt,
      verdictSchema: request.verdictSchema,
      temperature,
      sample: request.sample,
    });
    if (options.cacheDir !== undefined) {
      const cached = await readCachedVerdict(options.cacheDir, key);
      // A cached verdict is re-checked: a hand-edited or stale file is a miss, not a wrong grade.
      if (cached !== undefined && validatorFor(request.verdictSchema)(cached)) {
        onCall?.({ ...called, cached: true });
        return cached;
      }
    }
    let verdict: Record<string, unknown>;
    try {
      verdict = await client.ask(
        {
          system: request.system,
          prompt: request.prompt,
          toolName: VERDICT_TOOL_NAME,
          toolDescription: 'Submit your verdict. This is the only way to answer.',
          schema: request.verdictSchema,
          ...(temperature === JUDGE_TEMPERATURE ? {} : { temperature }),
        },
        signal,
        // Told before the verdict is checked: a refused answer was billed too.
        (usage) => onCall?.({ ...called, cached: false, ...(usage ? { usage } : {}) }),
      );
    } catch (error) {
      // An abort rethrows the signal's own reason (as fetch does): the run stops, no metric fails.
      if (signal?.aborted) throw signal.reason;
      throw asJudgeError(error);
    }
    if (options.cacheDir !== undefined) {
      try {
        await writeCachedVerdict(options.cacheDir, key, cachedAs, verdict);
      } catch (error) {
        // The verdict is paid for and valid: losing the cache entry must not lose the grade.
        const reason = errorMessage(error);
        options.onWarning?.(`could not write the judge cache in ${options.cacheDir}: ${reason}`);
      }
    }
    return verdict;
  }

  return { model: options.model, judge };
}
