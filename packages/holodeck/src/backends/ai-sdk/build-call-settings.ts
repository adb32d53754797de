import type { AgentConfig } from '../../config/index.js';

/** Most model steps one run may take when agent.yaml sets no `max_turns`. */
export const DEFAULT_MAX_TURNS = 20;
/** Retries after a failed model call: at most 3 attempts per call. */
export const MAX_RETRIES = 2;

/** The per-call settings of a run, from agent.yaml. */
export interface CallSettings {
  temperature?: number;
  maxOutputTokens?: number;
  maxRetries: number;
  /** Most model steps (turns) of one run. */
  maxTurns: number;
  /**
   * Provider options. JSON Schemas (response_format) are sent non-strict: OpenAI's strict mode
   * rejects ordinary schemas (optional properties, no `additionalProperties: false`), and the
   * answer is validated with ajv afterwards anyway.
   */
  providerOptions: { openai: { strictJsonSchema: boolean }; ollama: { strictJsonSchema: boolean } };
}

/** Translates agent.yaml's model settings and `max_turns` into AI SDK call settings. */
export function buildCallSettings(config: AgentConfig): CallSettings {
  const { model } = config;
  return {
    ...(model.temperature !== undefined ? { temperature: model.temperature } : {}),
    ...(model.max_tokens !== undefined ? { maxOutputTokens: model.max_tokens } : {}),
    maxRetries: MAX_RETRIES,
    maxTurns: config.max_turns ?? DEFAULT_MAX_TURNS,
    providerOptions: { openai: { strictJsonSchema: false }, ollama: { strictJsonSchema: false } },
  };
}
