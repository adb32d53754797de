import { z } from 'zod';
import { addConfigIssue } from './add-config-issue.js';
import {
  containsJson,
  endsWith,
  expression,
  isCsv,
  isXml,
  isYaml,
  pii,
  startsWith,
  wordCount,
} from './assertion-metric-schemas.js';
import {
  agentJudge,
  conversational,
  isRefusal,
  notIsRefusal,
  roleAdherence,
  similar,
} from './judged-assertion-schemas.js';

/**
 * Metrics of `evaluations.metrics` and a test case's `metrics`. Type names follow promptfoo
 * where one exists, so suites port easily. Every entry is strict: an option a metric does not
 * use is an error, never silently ignored.
 */
const common = {
  name: z.string().min(1).optional().describe('Display name; defaults to the type.'),
  weight: z
    .number()
    .nonnegative()
    .optional()
    .describe('Weight in the case score (the weighted mean of metric scores); default 1.'),
};
const threshold = (fallback: number, description: string) =>
  z.number().min(0).max(1).default(fallback).describe(description);
/** The `type` of a metric entry. */
const metricType = <const T extends string>(type: T) => z.literal(type).describe(`Metric type: ${type}.`);

const textMatch = <const T extends string>(type: T) =>
  z.strictObject({
    type: metricType(type),
    value: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .describe('The text (or list of texts) to look for in the response.'),
    mode: z
      .enum(['any', 'all'])
      .optional()
      .describe('For a list of values: any (default) or all must match.'),
    ...common,
  });

/** Deterministic checks; each has a `not-` twin that passes exactly when it fails. */
const equals = z.strictObject({
  type: metricType('equals'),
  value: z.string().describe('The whole expected response (surrounding whitespace ignored).'),
  ignore_case: z.boolean().default(false).describe('Compare without regard to case.'),
  ...common,
});
const contains = textMatch('contains');
const icontains = textMatch('icontains');
/** `contains-any` / `*-all` say in their name how a list matches: a `mode` would be ignored. */
function refuseMode<S extends z.ZodObject<ReturnType<typeof textMatch>['shape'], z.core.$strict>>(
  schema: S,
): S {
  return schema.superRefine((metric, context) => {
    if (metric.mode === undefined) return;
    const type = String(metric.type);
    const base = type.replace(/^not-/, '').replace(/-(any|all)$/, '');
    addConfigIssue(
      context,
      ['mode'],
      `mode does not apply to ${type}: its name already says how a list matches`,
      `remove mode, or use type: ${base} with mode: ${metric.mode}`,
    );
  });
}
const containsAny = textMatch('contains-any');
const containsAll = textMatch('contains-all');
const icontainsAny = textMatch('icontains-any');
const icontainsAll = textMatch('icontains-all');
const regexShape = z.strictObject({
  type: metricType('regex'),
  value: z.string().min(1).describe('A JavaScript regular expression the response must match.'),
  flags: z
    .string()
    .regex(/^[dgimsuvy]*$/, 'regex flags are some of d g i m s u v y')
    .optional()
    .describe('Regular expression flags, e.g. i for case-insensitive.'),
  ...common,
});
/** The pattern and its flags must compile (a bad one would fail every case at run time). */
function checkRegex(metric: { value: string; flags?: string | undefined }, context: z.RefinementCtx): void {
  if (metric.flags !== undefined) {
    try {
      new RegExp('', metric.flags);
    } catch {
      addConfigIssue(
        context,
        ['flags'],
        `"${metric.flags}" are not valid regex flags`,
        'use each of d g i m s u v y at most once, and not both u and v',
      );
      return;
    }
  }
  try {
    new RegExp(metric.value, metric.flags);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(
      /^Invalid regular expression: /,
      '',
    );
    addConfigIssue(
      context,
      ['value'],
      `is not a valid regular expression: ${reason}`,
      'check the brackets and escapes (in YAML, quote the pattern)',
    );
  }
}
const regex = regexShape.superRefine(checkRegex);
const notRegex = regexShape.extend({ type: metricType('not-regex') }).superRefine(checkRegex);
const isJson = z.strictObject({ type: metricType('is-json'), ...common });
const jsonSchema = z.strictObject({
  type: metricType('json-schema'),
  value: z
    .union([z.record(z.string(), z.unknown()), z.string().min(1)])
    .describe('A JSON Schema, or a path to one.'),
  ...common,
});

function negated<Shape extends z.ZodRawShape, const N extends string>(
  schema: z.ZodObject<Shape, z.core.$strict>,
  type: N,
) {
  return schema.extend({ type: metricType(type) });
}

/** Budgets: pass when the run stays within the threshold. */
const latency = z.strictObject({
  type: metricType('latency'),
  threshold: z.number().positive().describe('Milliseconds.'),
  ...common,
});
const cost = z.strictObject({
  type: metricType('cost'),
  threshold: z.number().nonnegative().describe('US dollars.'),
  ...common,
});
const turns = z.strictObject({
  type: metricType('turns'),
  threshold: z.int().positive().describe('Model turns.'),
  ...common,
});

/** Similarity to `ground_truth` (or to `value`, when given). */
const reference = z.string().optional().describe('Reference text; defaults to the case ground_truth.');
const bleu = z.strictObject({
  type: metricType('bleu'),
  threshold: threshold(0.5, 'Pass mark.'),
  value: reference,
  ...common,
});
const rouge = z.strictObject({
  type: metricType('rouge'),
  variant: z
    .enum(['rouge1', 'rouge2', 'rougeL'])
    .default('rougeL')
    .describe('rouge1 (words), rouge2 (word pairs) or rougeL (longest common subsequence).'),
  threshold: threshold(0.5, 'Pass mark (F-measure).'),
  value: reference,
  ...common,
});
const meteor = z.strictObject({
  type: metricType('meteor'),
  threshold: threshold(0.5, 'Pass mark.'),
  value: reference,
  ...common,
});
const levenshtein = z.strictObject({
  type: metricType('levenshtein'),
  threshold: threshold(0.8, 'Pass mark (1 - distance / longer length).'),
  value: reference,
  ...common,
});

/**
 * Settings every judge metric takes: its human labels (`holodeck judge calibrate`), the agreement
 * it must keep with them, and DeepEval's `strict_mode`.
 */
const judgeCommon = {
  calibration: z
    .string()
    .min(1)
    .optional()
    .describe(
      'A labels file (relative to agent.yaml): examples with a human pass/fail label that `holodeck judge calibrate` grades this judge against.',
    ),
  min_kappa: z
    .number()
    .min(-1)
    .max(1)
    .optional()
    .describe(
      "The lowest Cohen's kappa with the human labels this judge may have: `holodeck test` warns (and the gate breaks) when its last calibration is below it, stale or missing. Needs calibration.",
    ),
  strict_mode: z
    .boolean()
    .default(false)
    .describe(
      'As in DeepEval: the score becomes 1 for a perfect answer and 0 otherwise, and the threshold 1.',
    ),
};

/** min_kappa without labels could never be met: say so at load, not at the first `holodeck test`. */
function checkCalibration(
  metric: { calibration?: string; min_kappa?: number },
  context: z.RefinementCtx,
): void {
  if (metric.min_kappa !== undefined && metric.calibration === undefined)
    addConfigIssue(
      context,
      ['min_kappa'],
      'min_kappa needs a calibration file to measure the judge against',
      'add calibration: labels.yaml (examples with a human label), then run holodeck judge calibrate',
    );
}

/** Graded by the judge model (`evaluations.model`, default: the agent's model). */
const gEval = z
  .strictObject({
    type: metricType('g-eval'),
    name: z.string().min(1).describe('Required: names the criterion in reports.'),
    criteria: z.string().min(1).optional().describe('What a good answer does, in words.'),
    evaluation_steps: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe('The steps the judge follows; derived from criteria when not given.'),
    score_range: z
      .tuple([z.int(), z.int()])
      .default([1, 5])
      .describe('[min, max] of the judge score, normalised to 0..1.'),
    samples: z
      .int('samples is a whole number from 1 to 20')
      .min(1, 'samples is a whole number from 1 to 20')
      .max(20, 'samples is a whole number from 1 to 20')
      .default(1)
      .describe(
        'Judge calls per answer, their normalised scores averaged; default 1. The first runs at temperature 0, the others at evaluations.model.temperature (default 1), so they can differ. The judge answers through a forced tool call, which gives no log-probabilities to weight the score by.',
      ),
    threshold: threshold(0.5, 'Pass mark after normalising the score to 0..1.'),
    weight: common.weight,
    ...judgeCommon,
  })
  .superRefine((metric, context) => {
    checkCalibration(metric, context);
    if (!metric.criteria && !metric.evaluation_steps) {
      addConfigIssue(
        context,
        [],
        'g-eval needs "criteria" or "evaluation_steps"',
        'add criteria: <what a good answer does>',
      );
    }
    if (metric.score_range[0] >= metric.score_range[1]) {
      addConfigIssue(
        context,
        ['score_range'],
        'score_range must be [min, max] with min < max',
        'for example [1, 5]',
      );
    }
  });
const rubric = z
  .strictObject({
    type: metricType('rubric'),
    value: z.string().min(1).describe('The rubric the judge grades the response against.'),
    threshold: threshold(0.5, 'Pass mark.'),
    ...common,
    ...judgeCommon,
  })
  .superRefine(checkCalibration);
const rag = <const T extends string>(type: T) =>
  z
    .strictObject({
      type: metricType(type),
      threshold: threshold(0.5, 'Pass mark.'),
      ...common,
      ...judgeCommon,
    })
    .superRefine(checkCalibration);

/** deepeval's definition: a claim is unfaithful when the context contradicts it. */
const faithfulness = z
  .strictObject({
    type: metricType('faithfulness'),
    penalize_ambiguous_claims: z
      .boolean()
      .default(false)
      .describe(
        'Also count claims the context does not mention as unfaithful; default false (only contradicted claims are).',
      ),
    threshold: threshold(0.5, 'Pass mark.'),
    ...common,
    ...judgeCommon,
  })
  .superRefine(checkCalibration);

/** A JS/TS grader: `(input) => boolean | number | {score, passed?, reason?}`. */
const code = z.strictObject({
  type: metricType('code'),
  file: z.string().min(1).describe('Module path, relative to agent.yaml (.js, .mjs or .ts).'),
  function: z.string().min(1).default('default').describe('Export name.'),
  timeout: z
    .number()
    .positive('timeout is a number of seconds above 0')
    .default(30)
    .describe(
      'Seconds the grader may take; default 30. It receives { signal } as its second argument, aborted at this limit or when the attempt stops.',
    ),
  threshold: threshold(0.5, 'Pass mark for a numeric score.'),
  ...common,
});

export const MetricConfigSchema = z.discriminatedUnion('type', [
  equals,
  contains,
  icontains,
  refuseMode(containsAny),
  refuseMode(containsAll),
  refuseMode(icontainsAny),
  refuseMode(icontainsAll),
  regex,
  isJson,
  jsonSchema,
  negated(equals, 'not-equals'),
  negated(contains, 'not-contains'),
  negated(icontains, 'not-icontains'),
  refuseMode(negated(containsAny, 'not-contains-any')),
  refuseMode(negated(containsAll, 'not-contains-all')),
  refuseMode(negated(icontainsAny, 'not-icontains-any')),
  refuseMode(negated(icontainsAll, 'not-icontains-all')),
  notRegex,
  negated(isJson, 'not-is-json'),
  negated(jsonSchema, 'not-json-schema'),
  startsWith,
  endsWith,
  negated(startsWith, 'not-starts-with'),
  negated(endsWith, 'not-ends-with'),
  wordCount,
  isXml,
  isYaml,
  isCsv,
  negated(isXml, 'not-is-xml'),
  negated(isYaml, 'not-is-yaml'),
  negated(isCsv, 'not-is-csv'),
  containsJson,
  pii,
  expression,
  latency,
  cost,
  turns,
  bleu,
  rouge,
  meteor,
  levenshtein,
  gEval,
  rubric,
  isRefusal,
  notIsRefusal,
  similar,
  agentJudge('task_completion'),
  agentJudge('argument_correctness'),
  agentJudge('step_efficiency'),
  agentJudge('plan_adherence'),
  conversational('knowledge_retention'),
  roleAdherence,
  conversational('conversation_relevancy'),
  conversational('conversation_completeness'),
  faithfulness,
  rag('answer_relevancy'),
  rag('contextual_precision'),
  rag('contextual_recall'),
  rag('contextual_relevancy'),
  code,
]);
/** One metric entry. */
export type MetricConfig = z.infer<typeof MetricConfigSchema>;
/** Every metric type name. */
export type MetricType = MetricConfig['type'];
