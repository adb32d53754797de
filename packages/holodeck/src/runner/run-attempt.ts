import type { ExecutionResult, TokenUsage } from '../backends/contract/index.js';
import { emptyTokenUsage } from '../backends/contract/index.js';
import { InterruptedError } from '../errors.js';
import type { Metric, MetricContext, MetricInput, MetricOutcome } from '../evals/metric.js';
import { markTurn } from '../recording/recording-scope.js';
import { mergeRetrievalContext, retrievalContextOf } from '../tools/retrieval/retrieval-context.js';
import {
  allDecidingPassed,
  failedAttempt,
  partialOf,
  untilAborted,
  weightedScore,
  withWeights,
} from './attempt-outcome.js';
import type { AttemptRunner } from './attempt-runner.js';
import type { PreparedCase } from './prepare-suite.js';
import type { CaseAttempt, TurnRecord } from './report/run-report.js';

export interface AttemptOptions {
  runner: AttemptRunner;
  metricContext: MetricContext;
  timeoutMs: number;
  workingDirectory?: string;
  /** Stops the whole run (Ctrl+C, SIGTERM, or a credential failure). */
  signal?: AbortSignal;
}

/** What the metrics grade of one run (regrade-run.ts grades a saved run the same way). */
export function metricInput(
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

/** Every metric on one input; a metric that throws is a metric error, never dropped. */
export async function evaluateAll(
  metrics: readonly Metric[],
  input: MetricInput,
  context: MetricContext,
): Promise<MetricOutcome[]> {
  const outcomes = await Promise.all(
    metrics.map(async (metric) => {
      try {
        return await metric.evaluate(input, context);
      } catch (error) {
        // A metric that throws is reported as a metric error, never dropped.
        const message = describe(error);
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
  return withWeights(metrics, outcomes);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A sum of costs that is unknown as soon as one part is. */
export function addCost(total: number | null, part: number | null): number | null {
  return total === null || part === null ? null : total + part;
}

/** Why an attempt stopped, and whether the whole run was interrupted (Ctrl+C, SIGTERM). */
function stopReason(
  error: unknown,
  run: AbortSignal | undefined,
  timeout: AbortSignal,
  seconds: number,
): { reason: string; interrupted: boolean } {
  if (run?.aborted) {
    const interrupted = run.reason instanceof InterruptedError;
    return { reason: interrupted ? 'interrupted' : `stopped: ${describe(run.reason)}`, interrupted };
  }
  if (timeout.aborted) return { reason: `timed out after ${seconds} s`, interrupted: false };
  return { reason: describe(error), interrupted: false };
}

/**
 * Runs one attempt of a case (one agent run, or one conversation) and grades it. Its
 * `duration_ms` is the attempt's own time (run and grading), from its start to its end: a timed-out
 * attempt ends when its time is up.
 */
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
  // A stopped attempt lasted until it was stopped, not until its backend finished cleaning up.
  let stoppedAt: number | undefined;
  signal.addEventListener('abort', () => {
    stoppedAt = Date.now();
  });
  const elapsed = () => (stoppedAt ?? Date.now()) - startedAt;
  const run = { signal, ...(options.workingDirectory ? { workingDirectory: options.workingDirectory } : {}) };
  const { config } = testCase;
  try {
    if (config.turns) return await runConversation(testCase, attempt, options, run, elapsed);
    const input = config.input ?? '';
    const result = await untilAborted(options.runner.runSingle(input, run), signal);
    // A run Novarch killed is what a case expecting the kill is about: grade it, don't error it.
    const expectedKill = result.governance?.killed && config.expect_killed === true;
    if (result.is_error && !expectedKill)
      return failedAttempt(attempt, result.error_reason ?? 'the agent run failed', elapsed(), result);
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

interface ConversationTotals {
  usage: TokenUsage;
  cost: number | null;
  numTurns: number;
}

function addToTotals(totals: ConversationTotals, result: ExecutionResult): void {
  totals.cost = addCost(totals.cost, result.cost_usd);
  totals.numTurns += result.num_turns;
  for (const key of Object.keys(totals.usage) as (keyof TokenUsage)[])
    totals.usage[key] += result.token_usage[key];
}

/** The conversation so far as one ExecutionResult, for an attempt that stopped part way. */
function conversationSoFar(turns: TurnRecord[], totals: ConversationTotals): ExecutionResult {
  return {
    response: turns.at(-1)?.response ?? '',
    tool_calls: turns.flatMap((turn) => turn.tool_calls),
    tool_results: turns.flatMap((turn) => turn.tool_results),
    token_usage: totals.usage,
    num_turns: totals.numTurns,
    is_error: true,
    cost_usd: totals.cost,
    duration_ms: 0,
  };
}

async function runConversation(
  testCase: PreparedCase,
  attempt: number,
  options: AttemptOptions,
  run: { signal: AbortSignal; workingDirectory?: string },
  elapsed: () => number,
): Promise<CaseAttempt> {
  const { config } = testCase;
  const turnsConfig = config.turns ?? [];
  const conversation = await untilAborted(options.runner.openConversation(run), run.signal);
  const turns: TurnRecord[] = [];
  const totals: ConversationTotals = { usage: emptyTokenUsage(), cost: 0, numTurns: 0 };
  let last: ExecutionResult | undefined;
  let caseMetrics: MetricOutcome[] = [];
  // What the retrieval tools returned so far in the conversation: a turn's RAG metrics read the
  // passages of that turn and the turns before it (the model still has those in its history).
  let retrieved: string[] = [];
  try {
    for (const [index, turn] of turnsConfig.entries()) {
      let result: ExecutionResult;
      markTurn(index + 1);
      try {
        result = await untilAborted(conversation.send(turn.input), run.signal);
      } catch (error) {
        // The turn in flight still spent tokens: keep them with the turns before it.
        const partial = partialOf(error);
        if (partial) {
          addToTotals(totals, partial);
          turns.push({
            input: turn.input,
            response: partial.response,
            tool_calls: partial.tool_calls,
            tool_results: partial.tool_results,
            metrics: [],
            passed: false,
            error: describe(error),
          });
        }
        throw error;
      }
      last = result;
      addToTotals(totals, result);
      const base = {
        input: turn.input,
        response: result.response,
        tool_calls: result.tool_calls,
        tool_results: result.tool_results,
      };
      if (result.is_error) {
        const reason = result.error_reason ?? 'the agent run failed';
        turns.push({ ...base, metrics: [], passed: false, error: reason });
        return failedAttempt(
          attempt,
          `turn ${index + 1}: ${reason}`,
          elapsed(),
          conversationSoFar(turns, totals),
          turns,
        );
      }
      retrieved = mergeRetrievalContext(retrieved, retrievalContextOf(result) ?? []);
      const context = turn.context ?? config.context ?? (retrieved.length ? [...retrieved] : undefined);
      const input = metricInput(turn.input, result, turn.ground_truth, context);
      const turnMetrics = testCase.turnMetrics[index] ?? [];
      const metrics = await untilAborted(
        evaluateAll(turnMetrics, input, { ...options.metricContext, signal: run.signal }),
        run.signal,
      );
      turns.push({ ...base, metrics, passed: allDecidingPassed(turnMetrics, metrics) });
      if (index === turnsConfig.length - 1) {
        // The case's metrics grade the conversation's final answer.
        const finalInput = metricInput(turn.input, result, config.ground_truth ?? turn.ground_truth, context);
        caseMetrics = await untilAborted(
          evaluateAll(testCase.metrics, finalInput, { ...options.metricContext, signal: run.signal }),
          run.signal,
        );
      }
    }
  } catch (error) {
    const timedOut = !options.signal?.aborted && run.signal.aborted;
    const { reason, interrupted } = timedOut
      ? { reason: describe(run.signal.reason), interrupted: false }
      : stopReason(error, options.signal, run.signal, 0);
    const failed = failedAttempt(attempt, reason, elapsed(), conversationSoFar(turns, totals), turns);
    return interrupted ? { ...failed, interrupted: true } : failed;
  } finally {
    await conversation.release();
  }
  return {
    attempt,
    passed: turns.every((turn) => turn.passed) && allDecidingPassed(testCase.metrics, caseMetrics),
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
    duration_ms: elapsed(),
    turns,
  };
}
