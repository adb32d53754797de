import { z } from 'zod';
import { addConfigIssue } from './add-config-issue.js';
import { LLMProviderSchema } from './llm-provider-schema.js';

/**
 * One metric. Extra keys are accepted on purpose for now: each metric type has its own options,
 * and the test-runner issue defines them (and will make each type strict).
 */
export const MetricConfigSchema = z.looseObject({
  type: z.string().min(1).describe('Metric type, e.g. bleu, g_eval, tool_call_accuracy.'),
  name: z.string().min(1).optional(),
  threshold: z.number().optional(),
  weight: z.number().nonnegative().optional(),
});
/** A metric entry. */
export type MetricConfig = z.infer<typeof MetricConfigSchema>;

/** The `evaluations:` block: the judge model and the default metrics of every test case. */
export const EvaluationConfigSchema = z.strictObject({
  model: LLMProviderSchema.optional(),
  metrics: z.array(MetricConfigSchema).optional(),
});
/** The `evaluations:` block. */
export type EvaluationConfig = z.infer<typeof EvaluationConfigSchema>;

/** One user turn of a multi-turn test case. */
export const TestTurnSchema = z.strictObject({
  input: z.string().min(1),
  ground_truth: z.string().optional(),
  expected_tools: z.array(z.string().min(1)).optional(),
});
/** A turn of a multi-turn test case. */
export type TestTurn = z.infer<typeof TestTurnSchema>;

/** One test case: a single `input` or a list of `turns`. */
export const TestCaseSchema = z
  .strictObject({
    name: z.string().min(1),
    input: z.string().min(1).optional(),
    turns: z.array(TestTurnSchema).min(1).optional(),
    ground_truth: z.string().optional(),
    context: z.array(z.string()).optional(),
    expected_tools: z.array(z.string().min(1)).optional(),
    forbidden_tools: z.array(z.string().min(1)).optional(),
    tags: z.array(z.string().min(1)).optional(),
    metrics: z.array(MetricConfigSchema).optional(),
    repeat: z.int().min(1).optional(),
    timeout: z.number().positive().optional().describe('Seconds.'),
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
    if (testCase.input === undefined && testCase.turns === undefined) {
      addConfigIssue(context, [], 'a test case needs "input" or "turns"', 'add input: <the user message>');
    }
  });
/** A test case. */
export type TestCase = z.infer<typeof TestCaseSchema>;
