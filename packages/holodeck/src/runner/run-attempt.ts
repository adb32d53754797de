import type { MetricContext } from '../evals/metric.js';
import { retrievalContextOf } from '../tools/retrieval/retrieval-context.js';
import type { RunTraffic } from '../tools/run-traffic.js';
import { AttemptLimitMeter, limitStoppedAttempt } from './attempt-limits.js';
import {
  allDecidingPassed,
  failedAttempt,
  partialOf,
  unknownCostOf,
  untilAborted,
  weightedScore,
} from './attempt-outcome.js';
import type { AttemptRunner } from './attempt-runner.js';
import { evaluateAll, metricInput, runFailure, stopReason } from './grade-attempt.js';
import { GradingMeter } from './grading-meter.js';
import type { PreparedCase } from './prepare-suite.js';
import type { CaseAttempt } from './report/run-report.js';
import { runConversation } from './run-conversation.js';

export { addCost } from './grade-attempt.js';

export interface AttemptOptions {
  runner: AttemptRunner;
  metricContext: MetricContext;
  timeoutMs: number;
  workingDirectory?: string;
  /** Stops the whole run (Ctrl+C, SIGTERM, or a credential failure). */
  signal?: AbortSignal;
  /** A recorded attempt's traffic: its runs' requests and tool calls belong to it. */
  traffic?: RunTraffic;
}

/**
 * Runs one attempt of a case (one agent run, or one conversation) and grades it. Its
 * `duration_ms` is the attempt's own time (run and grading), from its start to its end: a timed-out
 * attempt ends when its time is up. Its judge_* fields are what its grading calls spent (a judge
 * call still running when the attempt is stopped is not counted).
 */
export async function runAttempt(
  testCase: PreparedCase,
  attempt: number,
  options: AttemptOptions,
): Promise<CaseAttempt> {
  const grading = new GradingMeter();
  const outcome = await runLimited(testCase, attempt, {
    ...options,
    metricContext: { ...options.metricContext, onGradingCall: grading.record },
  });
  return { ...outcome, ...grading.spend() };
}

/** An attempt within the case's `limits:` (which bound the agent's run, never the judge's calls). */
async function runLimited(
  testCase: PreparedCase,
  attempt: number,
  options: AttemptOptions,
): Promise<CaseAttempt> {
  const { limits } = testCase.config;
  if (!limits) return runWithin(testCase, attempt, options);
  // `limits:` stop the attempt in flight, through the same signal as its timeout.
  const controller = new AbortController();
  const meter = new AttemptLimitMeter(limits, (reason) => controller.abort(reason));
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  const outcome = await runWithin(testCase, attempt, { ...options, signal }, meter);
  return meter.stop && !options.signal?.aborted ? limitStoppedAttempt(outcome, meter.stop) : outcome;
}

async function runWithin(
  testCase: PreparedCase,
  attempt: number,
  options: AttemptOptions,
  meter?: AttemptLimitMeter,
): Promise<CaseAttempt> {
  const startedAt = Date.now();
  const controller = new AbortController();
  const seconds = options.timeoutMs / 1000;
  const timer = setTimeout(
    () => controller.abort(new Error(`timed out after ${seconds} s`)),
    options.timeoutMs,
  );
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  // A stopped attempt lasted until it was stopped, not until its backend finished cleaning up.
  let stoppedAt: number | undefined;
  signal.addEventListener('abort', () => {
    stoppedAt = Date.now();
  });
  const elapsed = () => (stoppedAt ?? Date.now()) - startedAt;
  const run = {
    signal,
    ...(options.workingDirectory ? { workingDirectory: options.workingDirectory } : {}),
    ...(options.traffic ? { traffic: options.traffic } : {}),
    ...(meter ? { onProgress: meter.onProgress, turnEnded: () => meter.turnEnded() } : {}),
  };
  const { config } = testCase;
  try {
    if (config.turns) return await runConversation(testCase, attempt, options, run, elapsed);
    const input = config.input ?? '';
    const result = await untilAborted(options.runner.runSingle(input, run), signal);
    // A run Novarch killed is what a case expecting the kill is about: grade it, don't error it.
    const expectedKill = result.governance?.killed && config.expect_killed === true;
    if (result.is_error && !expectedKill)
      return failedAttempt(attempt, runFailure(result, config), elapsed(), result);
    const metrics = await untilAborted(
      // A case without context is graded on what the agent's retrieval tools returned in the run.
      evaluateAll(
        testCase.metrics,
        metricInput(input, result, config.ground_truth, config.context ?? retrievalContextOf(result)),
        {
          ...options.metricContext,
          signal,
        },
      ),
      signal,
    );
    return {
      attempt,
      passed: allDecidingPassed(testCase.metrics, metrics),
      response: result.response,
      tool_calls: result.tool_calls,
      tool_results: result.tool_results,
      metrics,
      score: weightedScore(testCase.metrics, metrics),
      ...(result.governance ? { governance: result.governance } : {}),
      token_usage: result.token_usage,
      cost_usd: result.cost_usd,
      ...unknownCostOf(result),
      num_turns: result.num_turns,
      duration_ms: elapsed(),
    };
  } catch (error) {
    const { reason, interrupted } = stopReason(error, options.signal, controller.signal, seconds);
    const failed = failedAttempt(attempt, reason, elapsed(), partialOf(error));
    return interrupted ? { ...failed, interrupted: true } : failed;
  } finally {
    clearTimeout(timer);
  }
}
