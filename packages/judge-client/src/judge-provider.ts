/** The model vendors a judge call can go to (the same names as HoloDeck's `provider`). */
export const JUDGE_PROVIDERS = ['anthropic', 'openai', 'azure_openai', 'ollama'] as const;

/** A model vendor of a judge call. */
export type JudgeProvider = (typeof JUDGE_PROVIDERS)[number];

/**
 * Judges answer at temperature 0 so re-runs agree (and a cache keyed by the input stays meaningful).
 * Every request of this package sends it.
 */
export const JUDGE_TEMPERATURE = 0;
