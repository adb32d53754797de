import { z } from 'zod';
import { formatIssues } from './format-issues.js';

export const embeddingsBodySchema = z.looseObject({
  // Optional here: Azure's deployment route takes the model from the URL. Required elsewhere.
  model: z.string().min(1).optional(),
  // Token arrays (number[] inputs) are valid for OpenAI, but the fake embeds text only.
  input: z.union([z.string(), z.array(z.string()).min(1)]),
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: z.int().positive().max(8192).optional(),
  user: z.string().optional(),
});

/** A validated `/embeddings` request body. */
export type EmbeddingsBody = z.infer<typeof embeddingsBodySchema>;

/** Validation result: the body, or a message saying what is wrong. */
export type ParsedEmbeddingsBody = { ok: true; body: EmbeddingsBody } | { ok: false; message: string };

/** Validates a parsed JSON value as an `/embeddings` request body. */
export function parseEmbeddingsBody(
  value: unknown,
  options: { modelRequired: boolean },
): ParsedEmbeddingsBody {
  const result = embeddingsBodySchema.safeParse(value);
  if (!result.success) return { ok: false, message: formatIssues(result.error.issues) };
  if (options.modelRequired && result.data.model === undefined)
    return { ok: false, message: 'model: required' };
  return { ok: true, body: result.data };
}

/** The inputs of an embeddings request as a list. */
export function embeddingsInputList(body: EmbeddingsBody): string[] {
  return typeof body.input === 'string' ? [body.input] : body.input;
}
