import type { ExecutionResult } from '../backends/contract/index.js';
import { InterruptedError } from '../errors.js';
import type { Metric, MetricContext, MetricInput, MetricOutcome } from '../evals/metric.js';
import { withWeights } from './attempt-outcome.js';

// What grading an attempt needs, shared by one-run attempts (run-attempt.ts) and conversations
// (run-conversation.ts).

/** What a metric reads of a run. */
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
    ...(result.cost_usd === null && result.cost_unknown_reason
      ? { costUnknownReason: result.cost_unknown_reason }
      : {}),
    numTurns: result.num_turns,
    tokenUsage: result.token_usage,
  };
}

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

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A sum of costs that is unknown as soon as one part is. */
export function addCost(total: number | null, part: number | null): number | null {
  return total === null || part === null ? null : total + part;
}

/** Why an attempt stopped, and whether the whole run was interrupted (Ctrl+C, SIGTERM). */
export function stopReason(
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
 * Why a failed run failed, and when Novarch killed it in a case that sets expected_verdicts but
 * not expect_killed, how to grade that kill instead (a timed-out hold ends the run that way).
 */
export function runFailure(
  result: ExecutionResult,
  config: { expected_verdicts?: unknown; expect_killed?: boolean | undefined },
): string {
  const reason = result.error_reason ?? 'the agent run failed';
  if (!result.governance?.killed || config.expect_killed !== undefined || !config.expected_verdicts)
    return reason;
  return `${reason} (Novarch killed the run; to grade its verdicts, add expect_killed: true to the test case)`;
}
