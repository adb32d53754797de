import { z } from 'zod';
import { errorMessage } from '../../support.js';
import { addConfigIssue } from './add-config-issue.js';
import { AttemptLimitsSchema } from './attempt-limits-schema.js';
import { LLMProviderSchema } from './llm-provider-schema.js';
import { MetricConfigSchema } from './metric-config-schema.js';
import { trajectoryFields } from './trajectory-schema.js';

export { type MetricConfig, MetricConfigSchema, type MetricType } from './metric-config-schema.js';

/** The keys each matcher object takes; any other key would turn it into a literal silently. */
const MATCHER_KEYS: Record<'regex' | 'fuzzy', readonly string[]> = {
  regex: ['regex', 'flags'],
  fuzzy: ['fuzzy'],
};

/**
 * An expected argument value: a literal, `{regex: pattern, flags?}`, or `{fuzzy: text}`
 * (case/space-insensitive containment). An object with a `regex` or `fuzzy` key is a matcher: its
 * keys, its types and its pattern (it must compile) are checked here, not after the paid run.
 */
export const ExpectedArgSchema = z
  .unknown()
  .superRefine((value, context) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    const record = value as Record<string, unknown>;
    const kind = 'regex' in record ? 'regex' : 'fuzzy' in record ? 'fuzzy' : undefined;
    if (!kind) return;
    const allowed = MATCHER_KEYS[kind];
    for (const key of Object.keys(record).filter((key) => !allowed.includes(key)))
      addConfigIssue(
        context,
        [key],
        `unknown key "${key}" in a {${kind}} matcher`,
        `a {${kind}} matcher takes ${allowed.join(' and ')}; to expect a literal object, nest it under a key of its own`,
      );
    const pattern = record[kind];
    if (typeof pattern !== 'string' || (kind === 'regex' && pattern === ''))
      return addConfigIssue(
        context,
        [kind],
        `${kind} must be a non-empty string`,
        `e.g. {${kind}: "A-\\d+"}`,
      );
    if (kind !== 'regex') return;
    const flags = record.flags;
    if (flags !== undefined && (typeof flags !== 'string' || !/^[dgimsuvy]*$/.test(flags)))
      return addConfigIssue(context, ['flags'], 'regex flags are some of d g i m s u v y', 'e.g. flags: i');
    try {
      new RegExp(pattern, typeof flags === 'string' ? flags : undefined);
    } catch (error) {
      addConfigIssue(
        context,
        ['regex'],
        `invalid regular expression: ${errorMessage(error)}`,
        'fix the pattern (JavaScript syntax); escape a literal ( [ { . * + ? with a backslash',
      );
    }
  })
  .describe(
    'A literal value, {regex: pattern, flags?: "i"}, or {fuzzy: text} (case- and space-insensitive).',
  );

/** A tool the agent must call: a name, or `{name, args, count}`. */
export const ExpectedToolSchema = z.union([
  z.string().min(1),
  z.strictObject({
    name: z.string().min(1).describe('The tool: its short name, or the full mcp__server__tool name.'),
    args: z
      .record(z.string(), ExpectedArgSchema)
      .optional()
      .describe('Arguments that must match (others are free).'),
    count: z.int().min(0).optional().describe('Exact number of matching calls; default at least one.'),
  }),
]);
/** An `expected_tools` entry. */
export type ExpectedTool = z.infer<typeof ExpectedToolSchema>;

/** A Novarch verdict a test case expects (agent.yaml `governance:` must be set). */
export const ExpectedVerdictSchema = z.strictObject({
  tool: z.string().min(1).describe('The write tool (short or mcp__server__tool name).'),
  verdict: z.enum(['pass', 'kill', 'hold']).describe("Novarch's verdict on the call."),
  hold_status: z
    .enum(['approved', 'denied', 'skipped', 'timed_out'])
    .optional()
    .describe('For a hold: how it ended.'),
});
/** An `expected_verdicts` entry. */
export type ExpectedVerdict = z.infer<typeof ExpectedVerdictSchema>;

/**
 * `repeat:` of a case (or `evaluations.repeat`, the suite's default): a fixed number of attempts,
 * or `auto` / `{ auto: { min, max } }`: at least `min` (3), then more only while the pass-rate
 * interval still straddles the case's min_pass_rate, up to `max` (10).
 */
export const RepeatSchema = z
  .union([
    z.int().min(1),
    z.literal('auto'),
    z.strictObject({
      auto: z
        .strictObject({
          min: z.int().min(1).default(3).describe('Attempts always run; default 3.'),
          max: z.int().min(1).default(10).describe('Attempts never exceeded; default 10.'),
        })
        .describe('Adaptive repeats with their bounds.'),
    }),
  ])
  .superRefine((repeat, context) => {
    if (typeof repeat === 'object' && repeat.auto.min > repeat.auto.max)
      addConfigIssue(
        context,
        ['auto', 'max'],
        `repeat auto: max (${repeat.auto.max}) is below min (${repeat.auto.min})`,
        `set max to at least ${repeat.auto.min}`,
      );
  });
/** A `repeat:` value. */
export type RepeatSetting = z.infer<typeof RepeatSchema>;

/** `evaluations.gate`: the release gate `holodeck test` checks (also with `--gate`). */
export const GateConfigSchema = z.strictObject({
  required: z
    .union([z.literal('all'), z.array(z.string().min(1))])
    .optional()
    .describe('Cases that must pass: their names, or all; default all.'),
  max_cost_usd: z.number().nonnegative().optional().describe('Most the whole run may cost, US dollars.'),
  max_cost_per_passed_case_usd: z
    .number()
    .nonnegative()
    .optional()
    .describe('Most the run may cost per passed case, US dollars.'),
});
/** The `evaluations.gate` block. */
export type GateConfig = z.infer<typeof GateConfigSchema>;

/** The `evaluations:` block: the judge model and the default metrics of every test case. */
export const EvaluationConfigSchema = z.strictObject({
  model: LLMProviderSchema.optional().describe(
    'The judge of judge and RAG metrics; default: the agent model.',
  ),
  metrics: z
    .array(MetricConfigSchema)
    .optional()
    .describe('Metrics of every test case that sets no metrics of its own.'),
  gate: GateConfigSchema.optional().describe(
    'A release gate: required cases pass, nothing regressed against the approved baseline, nothing errored or missing, cost limits.',
  ),
  repeat: RepeatSchema.optional().describe(
    'Attempts of every case that sets no repeat of its own: a number, auto, or {auto: {min, max}}.',
  ),
  confidence: z
    .number()
    .gt(0)
    .lt(1)
    .optional()
    .describe(
      'Confidence level of every interval in the reports (pass rates, comparisons, repeat: auto); default 0.95.',
    ),
});
/** The `evaluations:` block. */
export type EvaluationConfig = z.infer<typeof EvaluationConfigSchema>;

/** One user turn of a multi-turn test case. */
export const TestTurnSchema = z.strictObject({
  input: z.string().min(1).describe('The user message of this turn.'),
  ground_truth: z.string().optional().describe("The expected answer of this turn (for this turn's metrics)."),
  context: z.array(z.string()).optional().describe('Retrieval context of this turn, for RAG metrics.'),
  expected_tools: z
    .array(ExpectedToolSchema)
    .optional()
    .describe('Tools this turn must call (a call counts when the tool ran).'),
  forbidden_tools: z.array(z.string().min(1)).optional().describe('Tools this turn must not call.'),
  ...trajectoryFields(ExpectedArgSchema),
  metrics: z
    .array(MetricConfigSchema)
    .optional()
    .describe("Checks of this turn's answer (the case metrics grade the final answer)."),
});
/** A turn of a multi-turn test case. */
export type TestTurn = z.infer<typeof TestTurnSchema>;

/** `vars:` of a case: values `{{name}}` in its texts and metric values stand for. */
export const CaseVarsSchema = z
  .record(z.string(), z.unknown())
  .superRefine((vars, context) => {
    for (const name of Object.keys(vars))
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
        addConfigIssue(
          context,
          [name],
          `variable name "${name}" is not letters, digits and _ (not starting with a digit)`,
          '{{ name }} placeholders can only name such variables: rename it, e.g. order_id',
        );
  })
  .describe('Values of {{name}} placeholders in input, ground_truth, context, turns and metric values.');

/** The fields a case shares with `default_case` (all but name, input and turns). */
const CASE_SETTINGS = {
  vars: CaseVarsSchema.optional(),
  thresholds: z
    .record(z.string().min(1), z.number().nonnegative())
    .optional()
    .describe(
      "Pass marks for this case by metric name (or type), replacing the metric's threshold (0..1 for scores; ms, USD or turns for budgets).",
    ),
  ground_truth: z.string().optional().describe('The expected answer (NLP metrics, RAG precision/recall).'),
  context: z.array(z.string()).optional().describe('Retrieval context, for RAG metrics.'),
  expected_tools: z
    .array(ExpectedToolSchema)
    .optional()
    .describe('Tools the agent must call; a call counts when the tool ran (not refused or invalid).'),
  forbidden_tools: z
    .array(z.string().min(1))
    .optional()
    .describe('Tools the agent must not call (refused calls count too).'),
  ...trajectoryFields(ExpectedArgSchema),
  tags: z.array(z.string().min(1)).optional().describe('Labels to select cases with --tag.'),
  metrics: z.array(MetricConfigSchema).optional().describe('Replaces evaluations.metrics for this case.'),
  repeat: RepeatSchema.optional().describe(
    'Run the case this many times (pass@k, pass^k); auto: until its pass-rate interval decides (see evaluations.repeat).',
  ),
  min_pass_rate: z.number().min(0).max(1).optional().describe('Share of repeats that must pass; default 1.'),
  expected_verdicts: z
    .array(ExpectedVerdictSchema)
    .optional()
    .describe('Novarch verdicts the run must produce, e.g. {tool: refund_order, verdict: hold}.'),
  expect_killed: z
    .boolean()
    .optional()
    .describe('Whether Novarch must kill the session (true) or not (false).'),
  timeout: z.number().positive().optional().describe('Seconds per attempt.'),
  limits: AttemptLimitsSchema.optional(),
};

/** One test case: a single `input` or a list of `turns`. */
export const TestCaseSchema = z
  .strictObject({
    name: z.string().min(1).describe('Unique name of the case (--filter matches it).'),
    input: z.string().min(1).optional().describe('The user message; or turns, for a conversation.'),
    turns: z
      .array(TestTurnSchema)
      .min(1)
      .optional()
      .describe('A conversation: one session, each turn with its own checks.'),
    ...CASE_SETTINGS,
  })
  .superRefine((testCase, context) => {
    if (testCase.input !== undefined && testCase.turns !== undefined) {
      addConfigIssue(
        context,
        ['turns'],
        'set either "input" or "turns", not both',
        'use input for one message, turns for a conversation',
      );
    }
    if (testCase.turns !== undefined)
      for (const field of ['expected_tool_sequence', 'called_before', 'max_tool_calls'] as const)
        if (testCase[field] !== undefined)
          addConfigIssue(
            context,
            [field],
            `${field} checks one answer's tool calls: set it on a turn of this conversation`,
            'move it under turns[n] (the turn whose calls it checks)',
          );
    if (testCase.input === undefined && testCase.turns === undefined) {
      addConfigIssue(context, [], 'a test case needs "input" or "turns"', 'add input: <the user message>');
    }
  });
/** A test case. */
export type TestCase = z.infer<typeof TestCaseSchema>;

/**
 * `default_case:` (promptfoo's defaultTest): settings every case takes unless it sets them itself;
 * `vars` and `thresholds` merge key by key (the case's win), `tags` add up.
 */
export const DefaultCaseSchema = z
  .strictObject(CASE_SETTINGS)
  .describe('Settings every test case takes unless it sets its own; vars and thresholds merge, tags add up.');
/** The `default_case` block. */
export type DefaultCase = z.infer<typeof DefaultCaseSchema>;
