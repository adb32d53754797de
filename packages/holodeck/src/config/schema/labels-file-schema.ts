import { z } from 'zod';
import { addConfigIssue } from './add-config-issue.js';

/**
 * One labelled example of a judge metric's `calibration:` file: the fields the metric reads, with
 * DeepEval's names (`output` is the agent's answer, `expected_output` the reference answer,
 * `retrieval_context` what retrieval found; `context` is its synonym, as in a HoloDeck test case),
 * and a human's verdict.
 */
export const LabelledExampleSchema = z
  .strictObject({
    input: z.string().min(1).describe('The user message.'),
    output: z.string().describe("The agent's answer the human judged."),
    expected_output: z
      .string()
      .optional()
      .describe('The reference answer (ground_truth of a test case), for metrics that read one.'),
    context: z.array(z.string()).optional().describe('Retrieved passages, for RAG metrics.'),
    retrieval_context: z
      .array(z.string())
      .optional()
      .describe('Retrieved passages, for RAG metrics (DeepEval\'s name for "context").'),
    label: z.enum(['pass', 'fail']).describe("The human's verdict: pass or fail."),
    score: z.number().min(0).max(1).optional().describe("The human's score from 0 to 1, when they gave one."),
    comment: z.string().optional().describe('Why the human labelled it so.'),
    source: z
      .string()
      .optional()
      .describe('Where the example came from (written by holodeck test add --label: run id and case).'),
  })
  .superRefine((example, context) => {
    if (example.context !== undefined && example.retrieval_context !== undefined)
      addConfigIssue(
        context,
        ['retrieval_context'],
        'set either "context" or "retrieval_context", not both: they are the same field',
        'keep retrieval_context (DeepEval) or context (HoloDeck)',
      );
  });
/** One labelled example. */
export type LabelledExample = z.infer<typeof LabelledExampleSchema>;

/** A labels file: `examples:`, a list of labelled examples. */
export const LabelsFileSchema = z.strictObject({
  examples: z.array(LabelledExampleSchema).describe('The labelled examples.'),
});
