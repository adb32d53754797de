import { z } from 'zod';
import type { Metric, MetricInput } from '../metric.js';
import { metricName, scoredOutcome } from '../metric-outcome.js';
import { type GradeItemsOptions, gradeItems, quoteItem } from './grade-items.js';
import { judgeSystemPrompt } from './judge-prompt.js';
import {
  type JudgeGrade,
  type JudgeMetricConfig,
  missingInputOutcome,
  type RequiredField,
  runJudgeMetric,
} from './run-judge-metric.js';

/** A field of the verdict: its key and what the judge is told it holds. */
export interface VerdictField {
  name: string;
  description: string;
}

/**
 * A metric scored as the share of items judged true: the judge splits some text into items
 * (statements, claims, sentences) and gives each a boolean and a reason.
 */
export interface ItemShareMetricSpec
  extends Pick<GradeItemsOptions<unknown>, 'countLabel' | 'rejectedLabel' | 'whenEmpty'> {
  /** The judge's task, for the system prompt. */
  task: string;
  /** The user prompt: the data blocks and how to split and judge them. */
  prompt(input: MetricInput): string;
  /** The verdict's list of items, e.g. `claims`. */
  list: VerdictField;
  /** The text of one item, e.g. `claim`. */
  item: VerdictField;
  /** The boolean of one item that counts it for the score, e.g. `supported`. */
  flag: VerdictField;
  /** What the reason of one item explains. */
  reason: string;
  /** Test-case fields the metric needs; without them it is an error outcome. */
  required?: readonly RequiredField[];
  /** The grade of a blank response, given without asking the judge (after the required check). */
  whenResponseEmpty?: JudgeGrade;
}

/** The verdict schema of a spec: `{ [list]: [{ [item]: string, [flag]: boolean, reason: string }] }`. */
function verdictSchemaOf(spec: ItemShareMetricSpec) {
  const item = z.strictObject({
    [spec.item.name]: z.string().describe(spec.item.description),
    [spec.flag.name]: z.boolean().describe(spec.flag.description),
    reason: z.string().describe(spec.reason),
  });
  return z.strictObject({ [spec.list.name]: z.array(item).describe(spec.list.description) });
}

/**
 * A metric factory for a spec: score = items judged true / items, and a reason that lists the
 * items judged false with the judge's reasons.
 */
export function itemShareMetric<Config extends JudgeMetricConfig>(
  spec: ItemShareMetricSpec,
): (config: Config) => Metric {
  const system = judgeSystemPrompt(spec.task);
  const verdict = verdictSchemaOf(spec);
  return (config) => ({
    name: metricName(config),
    type: config.type,
    async evaluate(input, context) {
      const missing = missingInputOutcome(config, input, spec.required ?? []);
      if (missing) return missing;
      if (spec.whenResponseEmpty && input.response.trim() === '') {
        const { score, reason } = spec.whenResponseEmpty;
        return scoredOutcome(config, score, config.threshold, reason);
      }
      return runJudgeMetric(config, context, {
        system,
        prompt: spec.prompt(input),
        verdict,
        grade: (parsed) =>
          gradeItems({
            items: parsed[spec.list.name] ?? [],
            // The schema makes the flag a boolean and the texts strings; the index types cannot say so.
            kept: (item) => item[spec.flag.name] === true,
            label: (item) => quoteItem(String(item[spec.item.name])),
            reason: (item) => String(item.reason),
            countLabel: spec.countLabel,
            rejectedLabel: spec.rejectedLabel,
            whenEmpty: spec.whenEmpty,
          }),
      });
    },
  });
}
