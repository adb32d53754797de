import type { AnswerUsage } from 'judge-client';
import type { LLMProvider } from '../../config/index.js';
import type { JudgeClient } from '../metric.js';
import { createJudgeClient } from './create-judge-client.js';

/** Options of `judgeClientFor()`. */
export interface JudgeClientForOptions {
  /** Where credentials and base URLs are read from (the agent's environment). */
  env: Readonly<Record<string, string | undefined>>;
  /** Directory of cached verdicts (`<agent dir>/.holodeck/cache/judge`). */
  cacheDir?: string | undefined;
  /** Told about settings the judge cannot honour, and about a cache file that could not be written. */
  onWarning?: ((message: string) => void) | undefined;
  /** Where the model settings are in agent.yaml, for messages: default `evaluations.model`. */
  settingsPath?: string | undefined;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Temperature of the repeats of a request: `evaluations.model.temperature` (never the agent's own
   * model's); default 1.
   */
  samplingTemperature?: number | undefined;
  /** Told the tokens of every answer the provider billed (the optimizer counts its proposer's). */
  onUsage?: ((usage: AnswerUsage) => void) | undefined;
}

/** auth_provider values the judge's direct API call cannot use. */
const UNSUPPORTED_AUTH = new Set(['bedrock', 'vertex', 'foundry']);

/**
 * The judge of `holodeck test` for a model of agent.yaml (`evaluations.model`, or the agent's own
 * `model`), on any provider. `max_tokens` bounds the verdict; judges grade at temperature 0, the
 * repeats of a request (G-Eval samples after the first, calibration's self-consistency samples) at
 * `options.samplingTemperature`. Throws a JudgeError when the credentials are missing, so nothing runs without a judge.
 */
export function judgeClientFor(model: LLMProvider, options: JudgeClientForOptions): JudgeClient {
  const settingsPath = options.settingsPath ?? 'evaluations.model';
  if (model.provider === 'anthropic' && model.auth_provider && UNSUPPORTED_AUTH.has(model.auth_provider)) {
    options.onWarning?.(
      `${settingsPath}.auth_provider "${model.auth_provider}" is not used by the judge: it calls the Anthropic API ` +
        'directly with ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or CLAUDE_CODE_OAUTH_TOKEN',
    );
  }
  return createJudgeClient({
    provider: model.provider,
    model: model.name,
    endpoint: model.endpoint,
    apiKey: model.api_key,
    apiKeyLabel: `${settingsPath}.api_key`,
    apiVersion: model.api_version,
    deployment: model.deployment,
    organization: model.organization,
    maxTokens: model.max_tokens,
    samplingTemperature: options.samplingTemperature,
    env: options.env,
    cacheDir: options.cacheDir,
    onWarning: options.onWarning,
    fetch: options.fetch,
    onUsage: options.onUsage,
  });
}
