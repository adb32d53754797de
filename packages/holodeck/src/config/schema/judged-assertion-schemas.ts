import { z } from 'zod';

/**
 * Assertions of the catalogue that need a model: `is-refusal` / `not-is-refusal` (a judge check
 * against the published rubric in evals/judge/refusal-rubric.ts).
 */
const common = {
  name: z.string().min(1).optional().describe('Display name; defaults to the type.'),
  weight: z
    .number()
    .nonnegative()
    .optional()
    .describe('Weight in the case score (the weighted mean of metric scores); default 1.'),
};

/** is-refusal: passes when the judge finds the response a refusal (by the published rubric). */
export const isRefusal = z.strictObject({
  type: z.literal('is-refusal').describe('Metric type: is-refusal.'),
  ...common,
});
/** not-is-refusal: passes when the judge finds the response is no refusal. */
export const notIsRefusal = z.strictObject({
  type: z.literal('not-is-refusal').describe('Metric type: not-is-refusal.'),
  ...common,
});
