import { z } from 'zod';

const count = (what: string) =>
  z.int({ error: `must be a whole number of ${what}` }).min(1, {
    error: `must be at least 1 (a limit of 0 would stop every attempt before its first ${what.replace(/s$/, '')})`,
  });

/**
 * `limits:` of a test case (or of `default_case`, for every case): what one attempt may use before
 * it is stopped, at once, and graded as failed with the limit as its reason. Unlike the `tokens`,
 * `cost` and `turns` metrics, which grade a finished run, a limit stops the run in flight.
 */
export const AttemptLimitsSchema = z
  .strictObject({
    tokens: count('tokens')
      .optional()
      .describe('Most tokens (prompt + completion, every model response) one attempt may use.'),
    messages: count('messages')
      .optional()
      .describe('Most model responses one attempt may get; one that calls tools in the last is stopped.'),
    cost: z
      .number({ error: 'must be a number of US dollars' })
      .gt(0, { error: 'must be above 0 US dollars (a limit of 0 would stop every attempt at once)' })
      .optional()
      .describe('Most US dollars one attempt may cost (needs prices known during the run).'),
    tool_calls: count('tool calls').optional().describe('Most tool calls one attempt may make.'),
  })
  .describe(
    'What one attempt may use before it is stopped and failed: tokens, messages, cost (USD), tool_calls.',
  );
/** A `limits:` block. */
export type AttemptLimits = z.infer<typeof AttemptLimitsSchema>;
