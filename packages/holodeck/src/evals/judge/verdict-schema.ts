import { z } from 'zod';
import { JudgeError } from './judge-error.js';

/**
 * The JSON Schema of a verdict, for `JudgeRequest.verdictSchema` (the judge's tool input schema).
 * Verdicts are defined once as zod schemas: this gives the judge its schema, and `parseVerdict`
 * types what comes back.
 */
export function toVerdictSchema(schema: z.ZodType): Record<string, unknown> {
  // `$schema` is dropped: the tool input schema needs none, and without it ajv uses 2020-12 too.
  const { $schema: _draft, ...jsonSchema } = z.toJSONSchema(schema);
  return jsonSchema;
}

/** Parses a verdict returned by a JudgeClient; a verdict of the wrong shape throws a JudgeError. */
export function parseVerdict<Schema extends z.ZodType>(schema: Schema, verdict: unknown): z.output<Schema> {
  const result = schema.safeParse(verdict);
  if (result.success) return result.data;
  const problems = result.error.issues
    .map((issue) => `${issue.path.join('.') || '(verdict)'}: ${issue.message}`)
    .join('; ');
  throw new JudgeError(`the judge's verdict does not match the verdict schema: ${problems}`, {
    code: 'invalid-answer',
  });
}
