import type { ExecutionResult, TokenUsage } from '../backends/contract/index.js';
import { emptyTokenUsage } from '../backends/contract/index.js';
import type { Metric, MetricContext, MetricInput, MetricOutcome } from '../evals/metric.js';
import type { AttemptRunner } from './attempt-runner.js';
import type { PreparedCase } from './prepare-suite.js';
import type { CaseAttempt, TurnRecord } from './report/run-report.js';

export interface AttemptOptions {
  runner: AttemptRunner;
  metricContext: MetricContext;
  timeoutMs: number;
  workingDirectory?: string;
  /** Stops the whole run (Ctrl-C). */
  signal?: AbortSignal;
}

function metricInput(
  input: string,
  result: ExecutionResult,
  groundTruth?: string,
  context?: string[],
): MetricInput {
  return {
    input,
    response: result.response,
    ...(groundTruth !== undefined ? { groundTruth } : {}),
    ...(context !== undefined ? { context } : {}),
    toolCalls: result.tool_calls,
    toolResults: result.tool_results,
    ...(result.structured_output !== undefined ? { structuredOutput: result.structured_output } : {}),
    ...(result.governance ? { governance: result.governance } : {}),
    durationMs: result.duration_ms,
    costUsd: result.cost_usd,
    numTurns: result.num_turns,
    tokenUsage: result.token_usage,
  };
}

async function evaluateAll(
  metrics: readonly Metric[],
  input: MetricInput,
  context: MetricContext,
): Promise<MetricOutcome[]> {
  return Promise.all(
    metrics.map(async (metric) => {
      try {
        return await metric.evaluate(input, context);
      } catch (error) {
        // A metric that throws is reported as a metric error, never dropped.
        const message = error instanceof Error ? error.message : String(error);
        return {
          name: metric.name,
          type: metric.type,
          score: 0,
          passed: false,
          reason: message,
          error: message,
        };
      }
    }),
  );
}

/** Weighted mean of metric scores; 1 when there are no metrics (nothing failed). */
function weightedScore(metrics: readonly Metric[], outcomes: readonly MetricOutcome[]): number {
  let total = 0;
  let weights = 0;
  outcomes.forEach((outcome, index) => {
    const weight = metrics[index]?.weight ?? 1;
    total += weight * outcome.score;
    weights += weight;
  });
  return weights === 0 ? 1 : total / weights;
}

function failedAttempt(attempt: number, error: string, startedAt: number, turns?: TurnRecord[]): CaseAttempt {
  return {
    attempt,
    passed: false,
    error,
    response: '',
    tool_calls: [],
    tool_results: [],
    metrics: [],
    score: 0,
    token_usage: emptyTokenUsage(),
    cost_usd: 0,
    num_turns: 0,
    duration_ms: Date.now() - startedAt,
    ...(turns ? { turns } : {}),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs one attempt of a case (one agent run, or one conversation) and grades it. */
export async function runAttempt(
  testCase: PreparedCase,
  attempt: number,
  options: AttemptOptions,
): Promise<CaseAttempt> {
  const startedAt = Date.now();
  const controller = new AbortController();
  const seconds = options.timeoutMs / 1000;
  const timer = setTimeout(
    () => controller.abort(new Error(`timed out after ${seconds} s`)),
    options.timeoutMs,
  );
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  const run = { signal, ...(options.workingDirectory ? { workingDirectory: options.workingDirectory } : {}) };
  const { config } = testCase;
  try {
    if (!config.turns) {
      const input = config.input ?? '';
      const result = await options.runner.runSingle(input, run);
      // A run Novarch killed is what a case expecting the kill is about: grade it, don't error it.
      const expectedKill = result.governance?.killed && config.expect_killed === true;
      if (result.is_error && !expectedKill)
        return {
          ...failedAttempt(attempt, result.error_reason ?? 'the agent run failed', startedAt),
          response: result.response,
        };
      const metrics = await evaluateAll(
        testCase.metrics,
        metricInput(input, result, config.ground_truth, config.context),
        options.metricContext,
      );
      return {
        attempt,
        passed: metrics.every((metric) => metric.passed),
        response: result.response,
        tool_calls: result.tool_calls,
        tool_results: result.tool_results,
        metrics,
        score: weightedScore(testCase.metrics, metrics),
        ...(result.governance ? { governance: result.governance } : {}),
        token_usage: result.token_usage,
        cost_usd: result.cost_usd,
        num_turns: result.num_turns,
        duration_ms: Date.now() - startedAt,
      };
    }
    return await runConversation(testCase, attempt, options, run, startedAt);
  } catch (error) {
    const reason = options.signal?.aborted
      ? 'interrupted'
      : controller.signal.aborted
        ? `timed out after ${seconds} s`
        : describe(error);
    return failedAttempt(attempt, reason, startedAt);
  } finally {
    clearTimeout(timer);
  }
}

/** A sum of costs that is unknown as soon as one part is. */
export function addCost(total: number | null, part: number | null): number | null {
  return total === null || part === null ? null : total + part;
}

async function runConversation(
  testCase: PreparedCase,
  attempt: number,
  options: AttemptOptions,
  run: { signal: AbortSignal; workingDirectory?: string },
  startedAt: number,
): Promise<CaseAttempt> {
  const { config } = testCase;
  const turnsConfig = config.turns ?? [];
  const conversation = await options.runner.openConversation(run);
  const turns: TurnRecord[] = [];
  const totals: { usage: TokenUsage; cost: number | null; numTurns: number } = {
    usage: emptyTokenUsage(),
    cost: 0,
    numTurns: 0,
  };
  let last: ExecutionResult | undefined;
  let caseMetrics: MetricOutcome[] = [];
  try {
    for (const [index, turn] of turnsConfig.entries()) {
      const result = await conversation.send(turn.input);
      last = result;
      totals.cost = addCost(totals.cost, result.cost_usd);
      totals.numTurns += result.num_turns;
      for (const key of Object.keys(totals.usage) as (keyof typeof totals.usage)[])
        totals.usage[key] += result.token_usage[key];
      const base = {
        input: turn.input,
        response: result.response,
        tool_calls: result.tool_calls,
        tool_results: result.tool_results,
      };
      if (result.is_error) {
        turns.push({
          ...base,
          metrics: [],
          passed: false,
          error: result.error_reason ?? 'the agent run failed',
        });
        return {
          ...failedAttempt(
            attempt,
            `turn ${index + 1}: ${result.error_reason ?? 'the agent run failed'}`,
            startedAt,
            turns,
          ),
        };
      }
      const input = metricInput(turn.input, result, turn.ground_truth, turn.context ?? config.context);
      const metrics = await evaluateAll(testCase.turnMetrics[index] ?? [], input, options.metricContext);
      turns.push({ ...base, metrics, passed: metrics.every((metric) => metric.passed) });
      if (index === turnsConfig.length - 1) {
        // The case's metrics grade the conversation's final answer.
        const finalInput = metricInput(
          turn.input,
          result,
          config.ground_truth ?? turn.ground_truth,
          turn.context ?? config.context,
        );
        caseMetrics = await evaluateAll(testCase.metrics, finalInput, options.metricContext);
      }
    }
  } catch (error) {
    return failedAttempt(
      attempt,
      run.signal.aborted ? describe(run.signal.reason) : describe(error),
      startedAt,
      turns,
    );
  } finally {
    await conversation.release();
  }
  return {
    attempt,
    passed: turns.every((turn) => turn.passed) && caseMetrics.every((metric) => metric.passed),
    response: last?.response ?? '',
    tool_calls: turns.flatMap((turn) => turn.tool_calls),
    tool_results: turns.flatMap((turn) => turn.tool_results),
    metrics: caseMetrics,
    score: weightedScore(
      [...testCase.turnMetrics.flat(), ...testCase.metrics],
      [...turns.flatMap((turn) => turn.metrics), ...caseMetrics],
    ),
    token_usage: totals.usage,
    cost_usd: totals.cost,
    num_turns: totals.numTurns,
    duration_ms: Date.now() - startedAt,
    turns,
  };
}
