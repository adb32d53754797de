import { z } from 'zod';
import { LLMProviderSchema } from './llm-provider-schema.js';

/**
 * Assertions of the catalogue that need a model: `is-refusal` / `not-is-refusal` (a judge check
 * against the published rubric in evals/judge/refusal-rubric.ts) and `similar` (embeddings).
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

/** similar: the cosine similarity of the response's embedding to the reference's (promptfoo's `similar`). */
export const similar = z.strictObject({
  type: z.literal('similar').describe('Metric type: similar.'),
  value: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
    .optional()
    .describe("The reference text (or texts: the closest counts); default the case's ground_truth."),
  threshold: z
    .number()
    .min(0)
    .max(1)
    .default(0.75)
    .describe('Lowest cosine similarity that passes, 0..1; default 0.75.'),
  embedding_provider: LLMProviderSchema.optional().describe(
    "The embeddings model (openai, azure_openai or ollama); default the agent's embedding_provider, else its model's provider.",
  ),
  ...common,
});

/** The agentic judge metrics, after DeepEval's (docs: "Agentic metrics" in the README). */
export const AGENT_JUDGE_TYPES = [
  'task_completion',
  'argument_correctness',
  'step_efficiency',
  'plan_adherence',
] as const;

/** An agentic judge metric: a pass mark, and DeepEval's strict mode. */
export const agentJudge = <const T extends (typeof AGENT_JUDGE_TYPES)[number]>(type: T) =>
  z.strictObject({
    type: z.literal(type).describe(`Metric type: ${type}.`),
    threshold: z.number().min(0).max(1).default(0.5).describe('Pass mark, 0..1; default 0.5.'),
    strict_mode: z
      .boolean()
      .default(false)
      .describe(
        "DeepEval's strict mode: the score is 1 when the judge finds no fault, else 0, and the pass mark is 1.",
      ),
    ...common,
  });

/** The conversational judge metrics, after DeepEval's. */
export const CONVERSATION_JUDGE_TYPES = [
  'knowledge_retention',
  'role_adherence',
  'conversation_relevancy',
  'conversation_completeness',
] as const;

const conversationalCommon = {
  threshold: z.number().min(0).max(1).default(0.5).describe('Pass mark, 0..1; default 0.5.'),
  strict_mode: z
    .boolean()
    .default(false)
    .describe(
      "DeepEval's strict mode: the score is 1 when the judge finds no fault, else 0, and the pass mark is 1.",
    ),
  ...common,
};
/** knowledge_retention, conversation_relevancy, conversation_completeness. */
export const conversational = <
  const T extends Exclude<(typeof CONVERSATION_JUDGE_TYPES)[number], 'role_adherence'>,
>(
  type: T,
) => z.strictObject({ type: z.literal(type).describe(`Metric type: ${type}.`), ...conversationalCommon });
/** role_adherence: the role the agent must keep to. */
export const roleAdherence = z.strictObject({
  type: z.literal('role_adherence').describe('Metric type: role_adherence.'),
  role: z.string().min(1).describe('The role the agent must keep to in every turn (DeepEval chatbot_role).'),
  ...conversationalCommon,
});
