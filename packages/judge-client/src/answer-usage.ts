import { z } from 'zod';

/**
 * The tokens one answer was billed for, as the provider counted them. `cache_read_tokens` and
 * `cache_creation_tokens` are beside `input_tokens` on Anthropic (`counting: 'cache-apart'`);
 * on OpenAI-compatible APIs `input_tokens` holds the cached ones too (`'cache-included'`).
 */
export interface AnswerUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
  counting: 'cache-apart' | 'cache-included';
}

const count = z.number().int().nonnegative();

const anthropicUsage = z.object({
  usage: z.object({
    input_tokens: count,
    output_tokens: count,
    cache_read_input_tokens: count.nullish(),
    cache_creation_input_tokens: count.nullish(),
  }),
});

const chatUsage = z.object({
  usage: z.object({
    prompt_tokens: count,
    completion_tokens: count,
    prompt_tokens_details: z.object({ cached_tokens: count.nullish() }).nullish(),
  }),
});

/** The usage of an Anthropic Messages answer; undefined when it carries none. */
export function anthropicUsageOf(answer: unknown): AnswerUsage | undefined {
  const parsed = anthropicUsage.safeParse(answer);
  if (!parsed.success) return undefined;
  const { usage } = parsed.data;
  return {
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    cache_read_tokens: usage.cache_read_input_tokens ?? 0,
    cache_creation_tokens: usage.cache_creation_input_tokens ?? 0,
    counting: 'cache-apart',
  };
}

/** The usage of a Chat Completions answer (OpenAI, Azure OpenAI, Ollama); undefined when it carries none. */
export function chatUsageOf(answer: unknown): AnswerUsage | undefined {
  const parsed = chatUsage.safeParse(answer);
  if (!parsed.success) return undefined;
  const { usage } = parsed.data;
  return {
    input_tokens: usage.prompt_tokens,
    output_tokens: usage.completion_tokens,
    cache_read_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    cache_creation_tokens: 0,
    counting: 'cache-included',
  };
}
