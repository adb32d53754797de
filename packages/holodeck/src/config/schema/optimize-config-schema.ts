import { z } from 'zod';
import { addConfigIssue } from './add-config-issue.js';
import { LLMProviderSchema } from './llm-provider-schema.js';
import { PricingSchema } from './pricing-schema.js';

/** What `holodeck test optimize` may change in agent.yaml. */
export const OptimizeAxisSchema = z.enum([
  'instructions',
  'temperature',
  'max_turns',
  'model',
  'tool_descriptions',
]);
/** One axis of the search. */
export type OptimizeAxis = z.infer<typeof OptimizeAxisSchema>;

/** `max_time`: seconds, or a duration such as `90s`, `20m`, `2h`. */
const DurationSchema = z
  .union([
    z.number().positive(),
    z
      .string()
      .regex(/^\d+(\.\d+)?\s*(s|m|h)$/, { error: 'must be seconds or a duration such as 90s, 20m or 2h' }),
  ])
  .describe('Seconds, or a duration such as 90s, 20m or 2h.');

/** Seconds of a `max_time` value (a number of seconds or `90s`/`20m`/`2h`). */
export function durationSeconds(value: number | string): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h)$/.exec(value);
  if (!match) return Number.NaN;
  const unit = match[2] === 'h' ? 3600 : match[2] === 'm' ? 60 : 1;
  return Number(match[1]) * unit;
}

/** The values of an enumerated axis, in agent.yaml beside `axes:`. */
const AXIS_VALUE_KEYS = {
  temperature: 'temperatures',
  max_turns: 'max_turns_values',
  model: 'models',
  tool_descriptions: 'tool_descriptions',
} as const;

/**
 * The `optimize:` block: what `holodeck test optimize` searches over, how it judges a candidate
 * (holdout, repeats, seed) and its budgets. Each axis but instructions lists the values to try.
 */
export const OptimizeConfigSchema = z
  .strictObject({
    axes: z
      .array(OptimizeAxisSchema)
      .min(1)
      .describe('What may change: instructions, temperature, max_turns, model, tool_descriptions.'),
    proposer: z
      .strictObject({
        model: LLMProviderSchema.describe('The model that proposes instructions.'),
        pricing: PricingSchema.optional().describe(
          "The proposer model's prices (USD per million tokens), to count its calls in max_cost; default: the price table (openai, azure_openai), or pricing: when the proposer is the agent's own model.",
        ),
      })
      .optional()
      .describe(
        "Who writes new instructions from the failing cases' transcripts and the judges' reasons; default: evaluations.model, else the agent's model.",
      ),
    temperatures: z
      .array(z.number().min(0).max(2))
      .min(1)
      .optional()
      .describe('Temperatures to try (axis temperature).'),
    max_turns_values: z
      .array(z.int().min(1))
      .min(1)
      .optional()
      .describe('max_turns values to try (axis max_turns).'),
    models: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe('Model names to try on the same provider (axis model).'),
    tool_descriptions: z
      .record(z.string().min(1), z.array(z.string().min(1)).min(1))
      .optional()
      .describe('Per tool name, descriptions to try (axis tool_descriptions).'),
    holdout: z
      .number()
      .min(0)
      .max(0.8)
      .default(0.3)
      .describe('Share of the cases held out (stratified by tag) to confirm the winner; default 0.3.'),
    seed: z
      .int()
      .min(0)
      .default(0)
      .describe('Seed of the train/holdout split and of the intervals; default 0.'),
    repeats: z.int().min(1).max(20).default(3).describe('Attempts per case for every candidate; default 3.'),
    max_cost: z.number().positive().optional().describe('Most the whole search may spend, US dollars.'),
    max_trials: z.int().min(1).default(10).describe('Most candidates tried; default 10.'),
    max_time: DurationSchema.optional(),
  })
  .superRefine((block, context) => {
    for (const [axis, key] of Object.entries(AXIS_VALUE_KEYS)) {
      const listed = block.axes.includes(axis as OptimizeAxis);
      const given = block[key] !== undefined;
      if (listed && !given)
        addConfigIssue(
          context,
          ['axes', block.axes.indexOf(axis as OptimizeAxis)],
          `axis ${axis} has no values to try`,
          axis === 'tool_descriptions'
            ? 'add tool_descriptions: { <tool name>: ["<a description to try>"] }'
            : `add ${key}: [...] beside axes`,
        );
      if (given && !listed)
        addConfigIssue(
          context,
          [key],
          `has no effect: ${axis} is not in optimize.axes`,
          `add ${axis} to axes, or remove ${key}`,
        );
    }
    const seen = new Set<string>();
    block.axes.forEach((axis, index) => {
      if (seen.has(axis)) addConfigIssue(context, ['axes', index], `axis ${axis} is listed twice`);
      seen.add(axis);
    });
  })
  .describe('`holodeck test optimize`: what it may change, how it judges a candidate, and its budgets.');
/** The `optimize:` block (defaults applied). */
export type OptimizeConfig = z.infer<typeof OptimizeConfigSchema>;
