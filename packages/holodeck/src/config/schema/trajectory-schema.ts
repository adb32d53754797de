import { z } from 'zod';

// The argument matcher is evaluation-config-schema's ExpectedArgSchema; it is passed in
// (trajectoryFields) so the two files do not import each other.
const argument = z.unknown();

/** One step of `expected_tool_sequence`: a tool name, or `{name, args}`. */
const sequenceStep = (arg: z.ZodType) =>
  z.union([
    z.string().min(1),
    z.strictObject({
      name: z.string().min(1).describe('The tool: its short name, or the full mcp__server__tool name.'),
      args: z.record(z.string(), arg).optional().describe('Arguments the call must match (others are free).'),
    }),
  ]);
/** A step of an expected tool sequence. */
export type SequenceStep = z.infer<ReturnType<typeof sequenceStep>>;

/** How the calls that ran must follow `expected_tool_sequence`. */
export const SEQUENCE_MODES = ['exact', 'in_order', 'any_order'] as const;

/**
 * `expected_tool_sequence`: a list (in order, other calls allowed between), or `{tools, mode}`:
 * exact (these calls and no others, in this order), in_order (gaps allowed), any_order (each step
 * matched by a call of its own, in any order).
 */
const toolSequence = (arg: z.ZodType) =>
  z
    .union([
      z.array(sequenceStep(arg)).min(1),
      z.strictObject({
        tools: z.array(sequenceStep(arg)).min(1).describe('The steps: names or {name, args}.'),
        mode: z
          .enum(SEQUENCE_MODES)
          .default('in_order')
          .describe('exact, in_order (default: gaps allowed) or any_order.'),
      }),
    ])
    .describe(
      'Tool calls that must run in this order (other calls may come between); or {tools, mode: exact | in_order | any_order}.',
    );
/** An `expected_tool_sequence` value. */
export type ToolSequence = z.infer<ReturnType<typeof toolSequence>>;

const pair = z.tuple([z.string().min(1), z.string().min(1)]);
/** `called_before: [a, b]` (or a list of such pairs): a ran before b was first called. */
export const CalledBeforeSchema = z
  .union([pair, z.array(pair).min(1)])
  .describe('[a, b]: a ran before the first call of b; or a list of such pairs.');
/** A `called_before` value. */
export type CalledBefore = z.infer<typeof CalledBeforeSchema>;

/** `max_tool_calls`: the most calls in all, or `{total, per_tool: {name: n}}`. */
export const MaxToolCallsSchema = z
  .union([
    z.int().min(0),
    z.strictObject({
      total: z.int().min(0).optional().describe('Most tool calls in all.'),
      per_tool: z
        .record(z.string().min(1), z.int().min(0))
        .optional()
        .describe('Most calls of each named tool.'),
    }),
  ])
  .describe('Most tool calls (refused ones count): a number for all tools, or {total, per_tool: {name: n}}.');
/** A `max_tool_calls` value. */
export type MaxToolCalls = z.infer<typeof MaxToolCallsSchema>;

/** The trajectory fields of a case and of a turn, argument values checked by `arg`. */
export function trajectoryFields(arg: z.ZodType = argument) {
  return {
    expected_tool_sequence: toolSequence(arg).optional(),
    called_before: CalledBeforeSchema.optional(),
    max_tool_calls: MaxToolCallsSchema.optional(),
  };
}
