import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { buildRuleVerdictsRequest } from './build-rule-verdicts-request.js';
import type { LlmJudge, LlmJudgeRequest, LlmRuleVerdict } from './llm-judge.js';
import { allUndecided, readRuleVerdicts } from './read-rule-verdicts.js';

/** Options of the Anthropic LLM judge; every one has a default. */
export interface AnthropicLlmJudgeOptions {
  /** Default `claude-sonnet-4-6`. */
  model?: string;
  /** Default `ANTHROPIC_API_KEY` from `env`. */
  apiKey?: string;
  /** Default `ANTHROPIC_BASE_URL` from `env`, else https://api.anthropic.com. */
  baseUrl?: string;
  /** Where the key and base URL are read from; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Default 2048. */
  maxTokens?: number;
  /** Per attempt; default 30 000. The agent waits for the judge, so keep this short. */
  timeoutMs?: number;
  /** Retries of 429, 5xx and network errors (the server's `x-should-retry` wins); default 1. */
  maxRetries?: number;
  /** Longest JSON text of one input or output sent to the model; default 4 000. */
  maxValueChars?: number;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
}

export const DEFAULT_JUDGE_MODEL = 'claude-sonnet-4-6';
const ANTHROPIC_VERSION = '2023-06-01';
const errorBodySchema = z.object({ error: z.object({ type: z.string(), message: z.string() }) });

/**
 * An LlmJudge on the Anthropic Messages API, called with plain `fetch` (no SDK, no streaming).
 * Never throws: a missing key, an HTTP or network error, a missing tool call or a malformed answer
 * makes the rules undecided (they hold for an operator), with the reason in the rationale. The API
 * key is never part of a rationale.
 */
export class AnthropicLlmJudge implements LlmJudge {
  readonly model: string;
  readonly #options: AnthropicLlmJudgeOptions;

  constructor(options: AnthropicLlmJudgeOptions = {}) {
    this.model = options.model ?? DEFAULT_JUDGE_MODEL;
    this.#options = options;
  }

  async judge(request: LlmJudgeRequest): Promise<LlmRuleVerdict[]> {
    if (request.rules.length === 0) return [];
    const env = this.#options.env ?? process.env;
    const apiKey = this.#options.apiKey ?? env.ANTHROPIC_API_KEY ?? '';
    if (apiKey.trim() === '') {
      return allUndecided(request.rules, 'the LLM judge has no API key: set ANTHROPIC_API_KEY');
    }
    try {
      const body = buildRuleVerdictsRequest(request, {
        model: this.model,
        maxTokens: this.#options.maxTokens ?? 2048,
        maxValueChars: this.#options.maxValueChars ?? 4000,
      });
      const answer = await this.#post(JSON.stringify(body), apiKey, env);
      if (!answer.ok) return allUndecided(request.rules, redact(answer.reason, apiKey));
      return readRuleVerdicts(answer.json, request.rules);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return allUndecided(request.rules, redact(`the LLM judge failed: ${reason}`, apiKey));
    }
  }

  async #post(
    body: string,
    apiKey: string,
    env: Readonly<Record<string, string | undefined>>,
  ): Promise<{ ok: true; json: unknown } | { ok: false; reason: string }> {
    const base = (this.#options.baseUrl ?? env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com').replace(
      /\/+$/,
      '',
    );
    const fetchImpl = this.#options.fetch ?? globalThis.fetch;
    const maxRetries = this.#options.maxRetries ?? 1;
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < maxRetries;
      let response: Response;
      let text: string;
      try {
        response = await fetchImpl(`${base}/v1/messages`, {
          method: 'POST',
          headers: {
            'x-api-key': apiKey,
            'anthropic-version': ANTHROPIC_VERSION,
            'content-type': 'application/json',
          },
          body,
          signal: AbortSignal.timeout(this.#options.timeoutMs ?? 30_000),
        });
        text = await response.text();
      } catch (error) {
        if (canRetry) {
          await delay(500 * 2 ** attempt);
          continue;
        }
        const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        return { ok: false, reason: `the request to the Anthropic API failed (${reason})` };
      }
      if (response.ok) {
        try {
          return { ok: true, json: JSON.parse(text) };
        } catch {
          return { ok: false, reason: 'the Anthropic API answered with invalid JSON' };
        }
      }
      const retryHeader = response.headers.get('x-should-retry');
      const retryable =
        retryHeader === null ? response.status === 429 || response.status >= 500 : retryHeader === 'true';
      if (canRetry && retryable) {
        await delay(retryDelayMs(response.headers, attempt));
        continue;
      }
      return {
        ok: false,
        reason: `the Anthropic API answered HTTP ${response.status}${describeErrorBody(text)}`,
      };
    }
  }
}

function describeErrorBody(text: string): string {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? ` (${parsed.data.error.type}: ${parsed.data.error.message})` : '';
  } catch {
    return '';
  }
}

function retryDelayMs(headers: Headers, attempt: number): number {
  const seconds = Number(headers.get('retry-after'));
  if (Number.isFinite(seconds) && seconds > 0) return Math.min(seconds * 1000, 10_000);
  return 500 * 2 ** attempt;
}

/** Removes the API key from text that may end up in a stored rationale or a log. */
function redact(text: string, secret: string): string {
  return secret.length > 0 ? text.split(secret).join('[redacted]') : text;
}
