import { ModelLlmJudge, type ModelLlmJudgeOptions } from './model-llm-judge.js';

/** Options of AnthropicLlmJudge: those of ModelLlmJudge (the provider defaults to anthropic). */
export type AnthropicLlmJudgeOptions = ModelLlmJudgeOptions;

/**
 * The LLM judge under its first name: a ModelLlmJudge whose provider defaults to anthropic. Kept
 * for compatibility; a `provider` given in the options (e.g. from a Novarch configuration's
 * `judge:` section) is honoured, not overridden.
 */
export class AnthropicLlmJudge extends ModelLlmJudge {
  constructor(options: AnthropicLlmJudgeOptions = {}) {
    super({ provider: 'anthropic', ...options });
  }
}
