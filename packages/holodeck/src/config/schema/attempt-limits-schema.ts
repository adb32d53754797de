import { z } from 'zod';

// A limit of 0 would stop every attempt before it starts: each is at least 1 (cost above 0).
const count = () => z.int().min(1);

/**
 * `limits:` of a test case (or of `default_case`, for every case): what one attempt may use before
 * it is stopped, at once, and graded as failed with the limit as its reason. Unlike the `tokens`,
 * `cost` and `turns` metrics, which grade a finished run, a limit stops the run in flight.
 */
export const AttemptLimitsSchema = z
  .strictObject({
    tokens: count()
      .optional()
      .describe('Most tokens (prompt + completion, every model response) one attempt may use.'),
    messages: count()
      .optional()
      .describe('Most model responses one attempt may get; one that calls tools in the last is stopped.'),
    cost: z
      .number()
      .gt(0)
      .optional()
      .describe('Most US dollars one attempt may cost (needs prices known during the run).'),
    tool_calls: count().optional().describe('Most tool calls one attempt may make.'),
  })
  .describe(
    'What one attempt may use before it is stopped and failed: tokens, messages, cost (USD), tool_calls.',
  );
/** A `limits:` block. */
export type AttemptLimits = z.infer<typeof AttemptLimitsSchema>;
