import { z } from 'zod';
import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { metricName } from '../metric-outcome.js';
import { shortToolName } from '../tools/match-tool-name.js';
import { dataBlock, judgeSystemPrompt } from './judge-prompt.js';
import { type JudgeGrade, type JudgeMetricConfig, runJudgeMetric } from './run-judge-metric.js';

type AgentJudgeConfig = Extract<
  MetricConfig,
  { type: 'task_completion' | 'argument_correctness' | 'step_efficiency' | 'plan_adherence' }
>;

/** Longest tool result shown to the judge, in characters (the rest is cut, and said so). */
const RESULT_LIMIT = 2000;

/** The agent's tool calls in order, with arguments and results, as one data block. */
export function toolCallsBlock(input: MetricInput): string {
  if (!input.toolCalls.length) return dataBlock('tool_calls', '(the agent called no tools)');
  const lines = input.toolCalls.map((call, index) => {
    const result = input.toolResults.find((entry) => entry.call_id === call.call_id);
    const text = result?.result ?? '(no result)';
    const shown = text.length > RESULT_LIMIT ? `${text.slice(0, RESULT_LIMIT)} … (cut)` : text;
    return `${index + 1}. ${shortToolName(call.name)}(${JSON.stringify(call.arguments)})${result?.is_error ? ' → ERROR: ' : ' → '}${shown}`;
  });
  return dataBlock('tool_calls', lines.join('\n'));
}

const score = z.number().min(0).max(1);

/** What each metric asks the judge, after DeepEval's definition of it. */
const SPECS = {
  task_completion: {
    task: 'You decide how completely the agent accomplished the task the user gave it.',
    ask: 'Work out the task the user set and the outcome the agent reached (its tool calls and final response). Score how fully the outcome accomplishes the task: 1 completely, 0 not at all.',
    verdict: z.strictObject({
      task: z.string().describe('The task the user set, in one sentence.'),
      outcome: z.string().describe('What the agent actually achieved, in one sentence.'),
      score: score.describe('How fully the outcome accomplishes the task, 0..1.'),
      reason: z.string().describe('Why, pointing at specifics.'),
    }),
    grade: (verdict: { task: string; outcome: string; score: number; reason: string }): JudgeGrade => ({
      score: verdict.score,
      reason: `Task: ${verdict.task} Outcome: ${verdict.outcome} ${verdict.reason}`,
    }),
  },
  step_efficiency: {
    task: 'You decide how efficiently the agent reached its outcome.',
    ask: 'Judge the steps (tool calls) the agent took for the task: score 1 when every step was needed and none was repeated or roundabout, lower for each redundant, repeated or unnecessary step.',
    verdict: z.strictObject({
      score: score.describe('1 when no step was wasted, 0 when most were.'),
      reason: z.string().describe('Which steps were redundant or unnecessary, if any.'),
    }),
    grade: (verdict: { score: number; reason: string }): JudgeGrade => verdict,
  },
  plan_adherence: {
    task: 'You decide whether the agent followed the plan it set out.',
    ask: 'Find the plan the agent stated or clearly implied (in its response or before its calls); leave plan empty when it stated none. Score how closely its tool calls followed that plan: 1 every step as planned, 0 not at all.',
    verdict: z.strictObject({
      plan: z.string().describe('The plan the agent stated, or "" when it stated none.'),
      score: score.describe('How closely the steps followed the plan, 0..1.'),
      reason: z.string().describe('Where the steps kept to or left the plan.'),
    }),
    grade: (verdict: { plan: string; score: number; reason: string }): JudgeGrade =>
      // A choice where DeepEval is silent: no plan stated, nothing adhered to, score 0.
      verdict.plan.trim()
        ? { score: verdict.score, reason: `Plan: ${verdict.plan} ${verdict.reason}` }
        : { score: 0, reason: `The agent stated no plan to adhere to. ${verdict.reason}` },
  },
  argument_correctness: {
    task: "You decide, for each of the agent's tool calls, whether its arguments were right for the user's request.",
    ask: 'For each numbered tool call, in order, decide whether its arguments are correct and sufficient for what the user asked (right values, nothing invented or missing). Give one entry per call.',
    verdict: z.strictObject({
      calls: z
        .array(
          z.strictObject({
            tool: z.string().describe('The tool of the call.'),
            correct: z.boolean().describe('true when the arguments fit the request.'),
            reason: z.string().describe('Why the arguments are or are not right.'),
          }),
        )
        .describe('One entry per tool call, in order.'),
    }),
    grade: (verdict: { calls: { tool: string; correct: boolean; reason: string }[] }): JudgeGrade => {
      const wrong = verdict.calls.filter((entry) => !entry.correct);
      const right = verdict.calls.length - wrong.length;
      return {
        score: verdict.calls.length ? right / verdict.calls.length : 1,
        reason: `${right} of ${verdict.calls.length} call(s) with correct arguments${wrong.length ? `; wrong: ${wrong.map((entry) => `${entry.tool}: ${entry.reason}`).join('; ')}` : ''}`,
      };
    },
  },
} as const;

/**
 * task_completion, argument_correctness, step_efficiency and plan_adherence: judge metrics of an
 * agent's run (its tool calls with arguments and results, and its final response), with
 * DeepEval's definitions. argument_correctness is the share of calls whose arguments the judge
 * finds right (1 when no tool was called, as DeepEval); strict mode makes the score 1 or 0 and
 * the pass mark 1.
 */
export function createAgentJudgeMetric(config: AgentJudgeConfig): Metric {
  // Each spec's grade reads its own verdict; the map cannot type that pairing.
  const spec = SPECS[config.type] as unknown as {
    task: string;
    ask: string;
    verdict: z.ZodType<Record<string, unknown>>;
    grade: (verdict: Record<string, unknown>) => JudgeGrade;
  };
  const threshold = config.threshold;
  const judged = config as JudgeMetricConfig;
  const system = judgeSystemPrompt(spec.task);
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input, context) {
      if (config.type === 'argument_correctness' && !input.toolCalls.length)
        return {
          name: metricName(config),
          type: config.type,
          score: 1,
          threshold,
          passed: true,
          reason: 'The agent called no tools: no argument was wrong.',
        };
      return runJudgeMetric(judged, context, {
        system,
        prompt: [
          dataBlock('user_input', input.input),
          toolCallsBlock(input),
          dataBlock('agent_response', input.response),
          spec.ask,
        ].join('\n\n'),
        verdict: spec.verdict,
        grade: spec.grade,
      });
    },
  };
}
