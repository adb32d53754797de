import { z } from 'zod';
import type { MetricConfig } from '../../config/index.js';
import { errorMessage } from '../../support.js';
import type { JudgeClient, Metric, MetricContext, MetricInput, MetricOutcome } from '../metric.js';
import { errorOutcome, metricName, scoredOutcome } from '../metric-outcome.js';
import { dataBlock, judgeSystemPrompt } from './judge-prompt.js';
import { NO_JUDGE_MESSAGE } from './run-judge-metric.js';
import { parseVerdict, toVerdictSchema } from './verdict-schema.js';

/** A parsed `g-eval` metric config (score_range, samples and threshold defaulted by the config layer). */
type GEvalConfig = Extract<MetricConfig, { type: 'g-eval' }>;

const stepsVerdict = z.strictObject({
  steps: z
    .array(z.string().min(1))
    .min(1)
    .max(10)
    .describe('The evaluation steps, in order: 3 to 6 short, concrete instructions.'),
});

const stepsSystem = judgeSystemPrompt(
  'You turn evaluation criteria into the concrete steps an evaluator follows to grade an answer.',
);

/**
 * The request that derives the evaluation steps of some criteria. It depends on the criteria only,
 * so the judge client's verdict cache keys it by model + criteria and reuses it across runs.
 */
export function stepsRequest(criteria: string) {
  return {
    system: stepsSystem,
    prompt: [
      dataBlock('evaluation_criteria', criteria),
      'Write the evaluation steps an evaluator should follow to judge how well an agent response meets ' +
        'these criteria, given the user input, the agent response and, when there is one, an expected answer.',
    ].join('\n\n'),
    verdictSchema: toVerdictSchema(stepsVerdict),
  };
}

/** Builds the prompt of one g-eval judgement. */
function gEvalPrompt(
  config: GEvalConfig,
  steps: readonly string[],
  input: MetricInput,
  min: number,
  max: number,
): string {
  const parts = ['Evaluate the agent response below against these criteria.'];
  if (config.criteria !== undefined) parts.push(dataBlock('evaluation_criteria', config.criteria));
  const numbered = steps.map((step, index) => `${index + 1}. ${step}`).join('\n');
  parts.push(`Follow these evaluation steps:\n${dataBlock('evaluation_steps', numbered)}`);
  parts.push(dataBlock('user_input', input.input), dataBlock('agent_response', input.response));
  if (input.groundTruth !== undefined) {
    parts.push(`The expected answer, for reference:\n${dataBlock('expected_answer', input.groundTruth)}`);
  }
  parts.push(
    `Give an integer score from ${min} (does not meet the criteria at all) to ${max} (fully meets them), ` +
      'and a reason that names what the response does well or gets wrong.',
  );
  return parts.join('\n\n');
}

/** The shared derivation of one value: started by the first caller, aborted only when every caller gave up. */
interface SharedSteps {
  value?: Promise<string[]>;
  controller?: AbortController;
  waiters: number;
}

/**
 * Waits for the shared steps with the caller's signal. A failure (or an abort of every waiter)
 * forgets the derivation, so the next case tries again; a success is kept for the run.
 */
async function awaitShared(
  shared: SharedSteps,
  derive: (signal: AbortSignal) => Promise<string[]>,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  signal?.throwIfAborted();
  if (shared.value === undefined) {
    const controller = new AbortController();
    const value = derive(controller.signal);
    shared.controller = controller;
    shared.value = value;
    value.then(
      () => {
        shared.controller = undefined;
      },
      () => {
        if (shared.value === value) {
          shared.value = undefined;
          shared.controller = undefined;
        }
      },
    );
  }
  const value = shared.value;
  const controller = shared.controller;
  if (signal === undefined || controller === undefined) return value;
  shared.waiters++;
  let onAbort = () => {};
  const stopped = new Promise<never>((_resolve, reject) => {
    onAbort = () => {
      shared.waiters--;
      if (shared.waiters === 0 && shared.value === value) {
        shared.value = undefined;
        shared.controller = undefined;
        controller.abort(signal.reason);
      }
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  stopped.catch(() => {});
  try {
    return await Promise.race([value, stopped]);
  } finally {
    if (!signal.aborted) {
      shared.waiters--;
      signal.removeEventListener('abort', onAbort);
    }
  }
}

/**
 * Creates a `g-eval` metric. Without `evaluation_steps`, the judge derives the steps from the
 * criteria once per judge (one call, kept for the run and in the judge cache), as G-Eval does;
 * every case is then graded by those steps. Each case gets `samples` judge calls whose integer
 * scores, normalised to [0, 1], are averaged; the first at temperature 0, the others at the judge's
 * sampling temperature. Log-probability weighting (G-Eval's, and DeepEval's where OpenAI returns
 * token log-probabilities) is not done: the judge answers through a forced tool call on every
 * provider, and a tool call's arguments come without log-probabilities; `samples` is the stand-in.
 */
export function createGEvalMetric(config: GEvalConfig): Metric {
  const [min, max] = config.score_range;
  const samples = config.samples;
  // The reason comes first so the judge explains before it commits to a number.
  const verdict = z.strictObject({
    reason: z.string().describe('Why this score, citing specifics of the response.'),
    score: z.int().min(min).max(max).describe(`Integer from ${min} to ${max}.`),
  });
  const verdictSchema = toVerdictSchema(verdict);
  const system = judgeSystemPrompt(
    `You score how well the agent's response meets the given evaluation criteria, on an integer scale from ${min} to ${max}.`,
  );
  const derived = new WeakMap<JudgeClient, SharedSteps>();

  /** The steps are derived once per judge and shared: their call is counted in the attempt that asked first. */
  async function stepsFor(judge: JudgeClient, context: MetricContext): Promise<string[]> {
    const { signal } = context;
    if (config.evaluation_steps !== undefined) return config.evaluation_steps;
    const criteria = config.criteria ?? '';
    let shared = derived.get(judge);
    if (shared === undefined) {
      shared = { waiters: 0 };
      derived.set(judge, shared);
    }
    return awaitShared(
      shared,
      async (sharedSignal) =>
        parseVerdict(
          stepsVerdict,
          await judge.judge(stepsRequest(criteria), sharedSignal, context.onGradingCall),
        ).steps,
      signal,
    );
  }

  async function evaluate(input: MetricInput, context: MetricContext): Promise<MetricOutcome> {
    const { judge, signal } = context;
    if (judge === undefined) return errorOutcome(config, NO_JUDGE_MESSAGE, config.threshold);
    let steps: string[];
    try {
      steps = await stepsFor(judge, context);
    } catch (error) {
      if (signal?.aborted) throw error;
      const message = errorMessage(error);
      return errorOutcome(
        config,
        `judge ${judge.model} failed to derive the evaluation steps: ${message}`,
        config.threshold,
      );
    }
    const prompt = gEvalPrompt(config, steps, input, min, max);
    try {
      const verdicts = await Promise.all(
        Array.from({ length: samples }, async (_, index) => {
          // A repeat of the whole judgement (calibration) takes the next block of sample numbers.
          const sample = (context.sample ?? 0) * samples + index;
          return parseVerdict(
            verdict,
            await judge.judge(
              { system, prompt, verdictSchema, ...(sample === 0 ? {} : { sample }) },
              signal,
              context.onGradingCall,
            ),
          );
        }),
      );
      const first = verdicts[0];
      if (first === undefined) throw new Error('no verdict');
      const normalised = (score: number) => (score - min) / (max - min);
      if (verdicts.length === 1) {
        return scoredOutcome(config, normalised(first.score), config.threshold, first.reason);
      }
      const scores = verdicts.map((sampled) => sampled.score);
      const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length;
      const reason = `Mean ${Number(mean.toFixed(2))} of ${scores.length} judge samples (${scores.join(', ')}). ${first.reason}`;
      return scoredOutcome(config, normalised(mean), config.threshold, reason);
    } catch (error) {
      if (signal?.aborted) throw error;
      const message = errorMessage(error);
      return errorOutcome(config, `judge ${judge.model} failed: ${message}`, config.threshold);
    }
  }

  return { name: metricName(config), type: config.type, evaluate };
}
