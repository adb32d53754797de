import type { LanguageModelUsage } from 'ai';
import type { TokenUsage } from '../contract/index.js';

/**
 * The AI SDK's usage of one step in HoloDeck's neutral names. Counts a provider does not report are
 * 0; cached input tokens are those the provider says it read from its prompt cache.
 */
export function mapUsage(usage: LanguageModelUsage): TokenUsage {
  const prompt = usage.inputTokens ?? 0;
  const completion = usage.outputTokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage.totalTokens ?? prompt + completion,
    cache_read_tokens: usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens ?? 0,
    cache_creation_tokens: usage.inputTokenDetails?.cacheWriteTokens ?? 0,
  };
}
