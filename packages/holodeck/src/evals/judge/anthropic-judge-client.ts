import type { ValidateFunction } from 'ajv';
import { compileUserSchema } from '../../json-schema/create-ajv.js';
import type { JudgeClient, JudgeRequest } from '../metric.js';
import { judgeCacheKey, readCachedVerdict, writeCachedVerdict } from './judge-cache.js';
import { resolveJudgeCredentials } from './judge-credentials.js';
import { postJudgeRequest } from './post-judge-request.js';
import { readVerdict, VERDICT_TOOL_NAME } from './read-verdict.js';

/** Options of `createAnthropicJudgeClient()`. */
export interface AnthropicJudgeClientOptions {
  /** Judge model, e.g. `claude-sonnet-4-6`. */
  model: string;
  /** Where credentials and ANTHROPIC_BASE_URL are read from (usually `process.env`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Directory of cached verdicts (the runner passes `<agent dir>/.holodeck/cache/judge`). No cache when unset. */
  cacheDir?: string;
  /** Default 4096: RAG verdicts list every claim or statement. */
  maxTokens?: number;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Per request; default 60 000. */
  timeoutMs?: number;
  /** Retries of 429, 5xx and network errors; default 2. */
  maxRetries?: number;
  /** Base backoff between retries when the server sends no `retry-after`; default 500. */
  retryDelayMs?: number;
  /** Told about problems that do not fail the verdict (a cache file that could not be written). */
  onWarning?: (message: string) => void;
}

const ANTHROPIC_VERSION = '2023-06-01';
const DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** Judges grade at temperature 0 so re-runs agree (and the cache key stays meaningful). */
const TEMPERATURE = 0;

/**
 * A JudgeClient on the Anthropic Messages API, called with plain `fetch` (no SDK, no streaming).
 * The judge must answer by calling `submit_verdict`, whose input schema is the verdict schema;
 * the verdict is validated with ajv. Verdicts are cached by their full input under `cacheDir`.
 * Throws a JudgeError at once when the environment holds no credentials.
 */
export function createAnthropicJudgeClient(options: AnthropicJudgeClientOptions): JudgeClient {
  const credentials = resolveJudgeCredentials(options.env);
  const baseUrl = (options.env.ANTHROPIC_BASE_URL?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, '');
  const maxTokens = options.maxTokens ?? 4096;
  const validators = new Map<string, ValidateFunction>();

  function validatorFor(schema: Record<string, unknown>): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = validators.get(key);
    if (validate === undefined) {
      validate = compileUserSchema(schema);
      validators.set(key, validate);
    }
    return validate;
  }

  async function judge(request: JudgeRequest, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const validate = validatorFor(request.verdictSchema);
    const key = judgeCacheKey({ model: options.model, ...request, temperature: TEMPERATURE });
    if (options.cacheDir !== undefined) {
      const cached = await readCachedVerdict(options.cacheDir, key);
      // A cached verdict is re-checked: a hand-edited or stale file is a miss, not a wrong grade.
      if (cached !== undefined && validate(cached)) return cached;
    }
    const answer = await postJudgeRequest({
      url: `${baseUrl}/v1/messages`,
      headers: {
        ...credentials.headers,
        'anthropic-version': ANTHROPIC_VERSION,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        model: options.model,
        max_tokens: maxTokens,
        temperature: TEMPERATURE,
        system: request.system,
        messages: [{ role: 'user', content: request.prompt }],
        tools: [
          {
            name: VERDICT_TOOL_NAME,
            description: 'Submit your verdict. This is the only way to answer.',
            input_schema: request.verdictSchema,
          },
        ],
        tool_choice: { type: 'tool', name: VERDICT_TOOL_NAME },
      }),
      fetch: options.fetch ?? globalThis.fetch,
      timeoutMs: options.timeoutMs ?? 60_000,
      maxRetries: options.maxRetries ?? 2,
      retryDelayMs: options.retryDelayMs ?? 500,
      credentialVariable: credentials.variable,
      secret: credentials.secret,
      ...(signal === undefined ? {} : { signal }),
    });
    const verdict = readVerdict(answer, validate, maxTokens);
    if (options.cacheDir !== undefined) {
      try {
        await writeCachedVerdict(options.cacheDir, key, options.model, verdict);
      } catch (error) {
        // The verdict is paid for and valid: losing the cache entry must not lose the grade.
        const reason = error instanceof Error ? error.message : String(error);
        options.onWarning?.(`could not write the judge cache in ${options.cacheDir}: ${reason}`);
      }
    }
    return verdict;
  }

  return { model: options.model, judge };
}
