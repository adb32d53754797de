// judge-client: one structured LLM call for judges (HoloDeck's evaluation judge, Novarch's rule
// judge), on any provider, with plain fetch. Explicit export list, pinned by test/unit/index.test.ts.

export type { AnswerUsage } from './answer-usage.js';
export { createStructuredClient, type StructuredClient } from './create-structured-client.js';
export {
  JudgeClientError,
  type JudgeClientErrorCode,
  type JudgeClientErrorDetails,
  redactSecret,
} from './judge-client-error.js';
export { JUDGE_PROVIDERS, JUDGE_TEMPERATURE, type JudgeProvider } from './judge-provider.js';
export { DEFAULT_AZURE_API_VERSION } from './provider-defaults.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
export {
  DEFAULT_MAX_TOKENS,
  type Environment,
  type ModelSettings,
  type StructuredClientOptions,
} from './structured-client-options.js';
export { DEFAULT_TOOL_DESCRIPTION, type StructuredRequest } from './structured-request.js';
