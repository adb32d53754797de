import { z } from 'zod';

/** Shapes of what the fake OpenAI server answers, for tests that read fields from it. */
const toolCallDeltaSchema = z.object({
  index: z.number(),
  id: z.string().optional(),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string().optional(), arguments: z.string().optional() }),
});

const usageSchema = z.object({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
  prompt_tokens_details: z.object({ cached_tokens: z.number() }),
  completion_tokens_details: z.object({ reasoning_tokens: z.number() }),
});

export const chunkSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.literal(0),
      delta: z.object({
        role: z.literal('assistant').optional(),
        content: z.string().nullish(),
        reasoning_content: z.string().optional(),
        tool_calls: z.array(toolCallDeltaSchema).optional(),
      }),
      finish_reason: z.string().nullable(),
    }),
  ),
  usage: usageSchema.nullish(),
});

/** One validated `chat.completion.chunk`. */
export type Chunk = z.infer<typeof chunkSchema>;

export const completionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  model: z.string(),
  choices: z.tuple([
    z.object({
      index: z.literal(0),
      message: z.object({
        role: z.literal('assistant'),
        content: z.string().nullable(),
        reasoning_content: z.string().optional(),
        tool_calls: z
          .array(
            z.object({
              id: z.string(),
              type: z.literal('function'),
              function: z.object({ name: z.string(), arguments: z.string() }),
            }),
          )
          .optional(),
      }),
      finish_reason: z.string(),
    }),
  ]),
  usage: usageSchema,
});

export const errorBodySchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string().nullish(),
    param: z.null().optional(),
    code: z.string().nullable(),
  }),
});

export const embeddingsResponseSchema = z.object({
  object: z.literal('list'),
  model: z.string(),
  data: z.array(
    z.object({
      object: z.literal('embedding'),
      index: z.number(),
      embedding: z.union([z.array(z.number()), z.string()]),
    }),
  ),
  usage: z.object({ prompt_tokens: z.number(), total_tokens: z.number() }),
});

/**
 * Parses a complete Chat Completions SSE body: `data: <JSON>` frames ending with `data: [DONE]`.
 * Throws on any other frame, on a missing or early `[DONE]`, and on a chunk of the wrong shape.
 */
export function parseChunkStream(text: string): Chunk[] {
  const frames = text.split('\n\n');
  if (frames.pop() !== '') throw new Error('SSE body does not end with a blank line');
  if (frames.pop() !== 'data: [DONE]') throw new Error('SSE body does not end with data: [DONE]');
  return frames.map((frame) => {
    if (!frame.startsWith('data: ') || frame.includes('\n')) {
      throw new Error(`malformed SSE frame: ${JSON.stringify(frame)}`);
    }
    return chunkSchema.parse(JSON.parse(frame.slice('data: '.length)));
  });
}

/** The content deltas of a chunk stream, in order. */
export function contentDeltas(chunks: readonly Chunk[]): string[] {
  return chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.content ?? []));
}

/** A minimal Chat Completions body, as a plain client would send it. */
export function chatBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello' }], ...overrides };
}
