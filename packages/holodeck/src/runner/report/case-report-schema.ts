import { z } from 'zod';

// The schemas of a run report's cases (their attempts, turns and metrics) and of its summary,
// for run-report-schema.ts. Objects are loose, and key order is the order writeJsonReport writes
// (see run-report-schema.ts).

export const count = z.int().nonnegative();
const milliseconds = z.number().nonnegative();
export const fraction = z.number().min(0).max(1);
export const timestamp = z.iso.datetime({ offset: true });

const PassIntervalSchema = z.looseObject({
  lower: fraction,
  upper: fraction,
  confidence: z.number().gt(0).lt(1).describe('The confidence level (evaluations.confidence).'),
  method: z
    .string()
    .describe('wilson, rule-of-three (no failure or no pass), cluster-wilson or cluster-rule-of-three.'),
});

const CASE_STATE_VALUES = ['passing', 'failing', 'flaky', 'errored', 'stopped'] as const;

const TokenUsageSchema = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  total_tokens: count,
  cache_read_tokens: count,
  cache_creation_tokens: count,
});

const ToolCallSchema = z.looseObject({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  call_id: z.string(),
});

const ToolResultSchema = z.looseObject({ call_id: z.string(), result: z.string(), is_error: z.boolean() });

const MetricOutcomeSchema = z.looseObject({
  name: z.string().describe("The metric's display name (its `name`, or its type)."),
  type: z.string(),
  score: fraction,
  threshold: z.number().optional().describe('The pass mark the score was compared with; absent for checks.'),
  passed: z.boolean(),
  reason: z.string(),
  error: z.string().optional().describe('Why the metric could not run; then passed is false.'),
  weight: z
    .number()
    .nonnegative()
    .optional()
    .describe('The weight agent.yaml gave it; 0 = reported but not deciding the pass or the score.'),
});

const TurnRecordSchema = z.looseObject({
  input: z.string(),
  response: z.string(),
  tool_calls: z.array(ToolCallSchema),
  tool_results: z.array(ToolResultSchema),
  metrics: z.array(MetricOutcomeSchema),
  passed: z.boolean(),
  error: z.string().optional(),
});

/** What grading spent (judge answers, `similar` embeddings); absent in reports written before it was counted. */
const judgeSpendFields = (of: string) => ({
  judge_token_usage: TokenUsageSchema.optional().describe(
    `Tokens the judge and the similar metric's embeddings were billed for ${of}, as each provider counts them.`,
  ),
  judge_cost_usd: z
    .number()
    .nonnegative()
    .nullable()
    .optional()
    .describe(
      `USD of the judge calls ${of}, at the built-in price tables (never pricing:); 0 when nothing was billed; null when a price or a usage is unknown.`,
    ),
  judge_cost_unknown_reason: z.string().optional().describe('Why judge_cost_usd is null.'),
  judge_calls: z
    .looseObject({
      billed: count,
      cached: count.describe('Verdicts read from the judge cache: they cost nothing.'),
    })
    .optional()
    .describe(`Judge and embeddings calls ${of}.`),
});

const CaseAttemptSchema = z.looseObject({
  attempt: z.int().positive().describe('1-based attempt number.'),
  passed: z.boolean(),
  error: z.string().optional().describe('Why the agent run failed (API error, crash, timeout).'),
  response: z.string(),
  tool_calls: z.array(ToolCallSchema),
  tool_results: z.array(ToolResultSchema),
  metrics: z.array(MetricOutcomeSchema),
  score: fraction.describe('Weighted mean of the metric scores; 0 when the run failed.'),
  token_usage: TokenUsageSchema,
  cost_usd: z.number().nonnegative().nullable().describe("USD of the agent's own model calls."),
  cost_unknown_reason: z
    .string()
    .optional()
    .describe('Why cost_usd is null (a local model, a model without a known price).'),
  ...judgeSpendFields('in this attempt'),
  num_turns: count,
  duration_ms: milliseconds,
  turns: z.array(TurnRecordSchema).optional().describe('Per-turn details of a multi-turn case.'),
  governance: z
    .looseObject({
      session_id: z.string(),
      killed: z.boolean(),
      verdicts: z
        .array(
          z.looseObject({
            tool: z.string(),
            action_type: z.string(),
            verdict: z.enum(['pass', 'kill', 'hold']),
            hold_status: z.enum(['pending', 'approved', 'denied', 'skipped', 'timed_out']).optional(),
            rule_ids: z.array(z.string()),
            rationale: z.string(),
          }),
        )
        .describe("The judge's verdicts (team rules), one per judged write, with what became of a hold."),
      refusals: z
        .array(
          z.looseObject({
            tool: z.string(),
            action_type: z.string(),
            source: z.enum(['gate', 'permissions']),
            rationale: z.string(),
          }),
        )
        .optional()
        .describe(
          "Calls Novarch refused without a judge's verdict: by its gate (source gate) or by the agent's permission rules (source permissions). Absent in reports written before holodeck recorded them.",
        ),
    })
    .optional()
    .describe("Novarch's verdicts in this attempt, when the agent is governed."),
  interrupted: z.boolean().optional().describe('True when the run was interrupted while this attempt ran.'),
  stopped: z
    .looseObject({
      limit: z.enum(['tokens', 'messages', 'cost', 'tool_calls']),
      max: z.number(),
      reached: z.number(),
      reason: z.string().describe('e.g. "stopped: tokens limit 2000 reached (2140)"'),
    })
    .optional()
    .describe(
      'The limits: entry that stopped this attempt in flight: then it failed (not errored), its one metric outcome (type limits) giving the reason.',
    ),
});

export const CaseReportSchema = z.looseObject({
  name: z.string(),
  variant: z.string().optional().describe('In a matrix run: the variant this result is of (see matrix).'),
  tags: z.array(z.string()),
  input: z.string().describe("The user message (the first turn's, for a conversation)."),
  ground_truth: z.string().optional(),
  passed: z.boolean().describe('pass_rate >= min_pass_rate.'),
  errored: z
    .boolean()
    .describe(
      'True when an attempt could not be graded (agent run failed, or a deciding metric could not run). Before states were recorded: when no attempt ran to completion.',
    ),
  state: z
    .enum(CASE_STATE_VALUES)
    .optional()
    .describe(
      'passing, failing, flaky, errored or stopped; absent in reports written before states were recorded.',
    ),
  finished_attempts: count.optional().describe('Attempts graded to the end: what pass_rate is over.'),
  pass_interval: PassIntervalSchema.nullable()
    .optional()
    .describe('Interval of pass_rate; null with fewer than 2 finished attempts.'),
  interrupted: z
    .boolean()
    .optional()
    .describe(
      'True when the interrupted run kept this case from finishing; then neither passed nor errored.',
    ),
  error: z.string().optional().describe('The first run error, when any.'),
  repeat_stop: z
    .looseObject({
      rule: z.enum(['decided', 'max', 'stopped']),
      attempts: count,
      min: count,
      max: count,
      reason: z.string(),
    })
    .optional()
    .describe('With repeat: auto, why the attempts stopped where they did.'),
  source: z
    .looseObject({ file: z.string(), line: z.int().positive() })
    .optional()
    .describe('Where the case is written (agent.yaml or its test_cases_file), for CI annotations.'),
  pass_rate: fraction.describe('Finished attempts that passed / finished attempts.'),
  min_pass_rate: fraction,
  pass_at_k: fraction,
  pass_pow_k: fraction,
  attempts: z.array(CaseAttemptSchema),
  response: z.string().describe('Copy of the first attempt; so are the fields below.'),
  tool_calls: z.array(ToolCallSchema),
  tool_results: z.array(ToolResultSchema),
  metrics: z.array(MetricOutcomeSchema),
  score: fraction.describe("Mean of the attempts' scores."),
  token_usage: TokenUsageSchema,
  num_turns: count,
  duration_ms: milliseconds,
});

export const RunSummarySchema = z.looseObject({
  total: count,
  passed: count,
  failed: count.describe('Cases that ran and failed.'),
  errored: count.describe('Cases whose agent run failed.'),
  interrupted: count.optional().describe('Cases an interruption kept from finishing.'),
  pass_rate: fraction.describe('Passed cases / cases that finished (neither errored nor stopped).'),
  states: z
    .looseObject({ passing: count, failing: count, flaky: count, errored: count, stopped: count })
    .optional()
    .describe('Cases by state; a flaky case is also counted in passed or failed.'),
  confidence: z.number().gt(0).lt(1).optional().describe('The confidence level of every interval.'),
  attempts: z
    .looseObject({
      finished: count,
      passed: count,
      errored: count,
      stopped: count,
      pass_rate: fraction.describe('passed / finished attempts.'),
      pass_interval: PassIntervalSchema.extend({
        effective_attempts: z
          .number()
          .nonnegative()
          .describe('Attempts / design effect: what the clustered interval rests on.'),
      })
        .nullable()
        .describe(
          'Cluster-robust (by case) interval of pass_rate; null with fewer than 2 finished attempts.',
        ),
    })
    .optional()
    .describe('Attempts of every case by how they ended; absent in older reports.'),
  duration_ms: milliseconds,
  token_usage: TokenUsageSchema,
  cost_usd: z.number().nonnegative().nullable(),
  cost_unknown_reason: z
    .string()
    .optional()
    .describe('Why cost_usd is null: the reason of the first attempt of unknown cost.'),
  cost_per_passed_case_usd: z
    .number()
    .nonnegative()
    .nullable()
    .optional()
    .describe('cost_usd / passed cases; null when the cost is unknown or no case passed.'),
  ...judgeSpendFields('over every attempt'),
  total_cost_usd: z
    .number()
    .nonnegative()
    .nullable()
    .optional()
    .describe('What the run spent: cost_usd (the agent) + judge_cost_usd; null when either is unknown.'),
});
