import type { z } from 'zod';
import type { MetricConfig } from '../../config/index.js';
import { errorMessage } from '../../support.js';
import type { MetricContext, MetricInput, MetricOutcome } from '../metric.js';
import { errorOutcome, scoredOutcome } from '../metric-outcome.js';
import { describeEmptyRetrieval, emptyRetrievalOf } from './empty-retrieval.js';
import { parseVerdict, toVerdictSchema } from './verdict-schema.js';

/** The parsed config of a judge metric (defaults applied by the config layer). */
export type JudgeMetricConfig = Extract<
  MetricConfig,
  {
    type:
      | 'g-eval'
      | 'rubric'
      | 'faithfulness'
      | 'answer_relevancy'
      | 'contextual_precision'
      | 'contextual_recall'
      | 'contextual_relevancy'
      | 'task_completion'
      | 'argument_correctness'
      | 'step_efficiency'
      | 'plan_adherence'
      | 'knowledge_retention'
      | 'role_adherence'
      | 'conversation_relevancy'
      | 'conversation_completeness';
  }
>;

/** What a metric concluded from a verdict. */
export interface JudgeGrade {
  score: number;
  reason: string;
  /** Set to veto a pass the score alone would give (the rubric's `pass: false`). */
  vetoed?: boolean;
}

/** One judge call of a metric: the prompt, the verdict's shape, and how a verdict becomes a grade. */
export interface JudgeCall<Verdict extends z.ZodType> {
  system: string;
  prompt: string;
  verdict: Verdict;
  grade(verdict: z.output<Verdict>): JudgeGrade;
}

/** Said when a judge metric runs without a judge client. */
export const NO_JUDGE_MESSAGE =
  'no judge model configured: set evaluations.model in agent.yaml (e.g. provider: anthropic, name: claude-sonnet-4-6)';

/** A graded outcome: score clamped to [0, 1], passed = score ≥ threshold, unless the grade is vetoed. */
function gradedOutcome(config: JudgeMetricConfig, grade: JudgeGrade): MetricOutcome {
  const outcome = scoredOutcome(config, grade.score, config.threshold, grade.reason);
  return grade.vetoed === true ? { ...outcome, passed: false } : outcome;
}

/** Which test-case fields a metric needs. */
export type RequiredField = 'context' | 'ground_truth';

/**
 * The outcome of a metric that lacks a field it needs (an empty list or blank text counts as
 * missing), or undefined when everything is there. A missing field of the test case is an error
 * outcome saying what to add. No context because the agent's retrieval searches ran and found
 * nothing is not: the case is right and the agent's retrieval gave nothing to ground an answer
 * on, so the metric fails with score 0 and says so, without asking the judge; when every search
 * failed (a tool error) the metric could not run, an error outcome with the search's error.
 */
export function missingInputOutcome(
  config: JudgeMetricConfig,
  input: MetricInput,
  required: readonly RequiredField[],
): MetricOutcome | undefined {
  const missing = required.filter((field) =>
    field === 'context'
      ? !input.context?.some((chunk) => chunk.trim() !== '')
      : (input.groundTruth ?? '').trim() === '',
  );
  if (missing.length === 0) return undefined;
  const retrieval = missing.includes('context') ? emptyRetrievalOf(input) : undefined;
  const fromCase = retrieval ? missing.filter((field) => field !== 'context') : missing;
  if (retrieval && fromCase.length === 0) {
    const said = describeEmptyRetrieval(retrieval);
    if (retrieval.empty === 0)
      return errorOutcome(config, `${config.type} has no context: ${said}`, config.threshold);
    // Never a pass, even at threshold 0: nothing grounded the answer.
    const reason = `${said.charAt(0).toUpperCase()}${said.slice(1)}.`;
    return { ...scoredOutcome(config, 0, config.threshold, reason), passed: false };
  }
  const fixes = fromCase.map((field) =>
    field === 'context'
      ? '"context:" (the list of retrieved passages)'
      : '"ground_truth:" (the expected answer)',
  );
  return errorOutcome(
    config,
    `${config.type} needs ${fromCase.join(' and ')}: add ${fixes.join(' and ')} to the test case`,
    config.threshold,
  );
}

/**
 * Asks the judge once and grades its verdict. No judge, or a judge that fails, gives an error
 * outcome (never a pass); an abort of `context.signal` is rethrown so the run stops.
 */
export async function runJudgeMetric<Verdict extends z.ZodType>(
  config: JudgeMetricConfig,
  context: MetricContext,
  call: JudgeCall<Verdict>,
): Promise<MetricOutcome> {
  if (context.judge === undefined) return errorOutcome(config, NO_JUDGE_MESSAGE, config.threshold);
  try {
    const raw = await context.judge.judge(
      {
        system: call.system,
        prompt: call.prompt,
        verdictSchema: toVerdictSchema(call.verdict),
        ...(context.sample ? { sample: context.sample } : {}),
      },
      context.signal,
      context.onGradingCall,
    );
    return gradedOutcome(config, call.grade(parseVerdict(call.verdict, raw)));
  } catch (error) {
    if (context.signal?.aborted) throw error;
    const message = errorMessage(error);
    return errorOutcome(config, `judge ${context.judge.model} failed: ${message}`, config.threshold);
  }
}
