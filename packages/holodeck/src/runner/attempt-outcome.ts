import type { ExecutionResult } from '../backends/contract/index.js';
import { emptyTokenUsage } from '../backends/contract/index.js';
import { AgentSessionError } from '../errors.js';
import type { Metric, MetricOutcome } from '../evals/metric.js';
import type { CaseAttempt, TurnRecord } from './report/run-report.js';

/**
 * Whether a metric decides pass/fail. `weight: 0` makes a metric reported but not deciding: it
 * is graded and shown, counts in neither the score nor the verdict (a case whose every metric has
 * weight 0 is rejected when the suite loads, since nothing would decide it).
 */
export function decides(metric: Pick<Metric, 'weight'>): boolean {
  return metric.weight !== 0;
}

/** Whether the deciding outcomes all passed (`outcomes[i]` is the outcome of `metrics[i]`). */
export function allDecidingPassed(metrics: readonly Metric[], outcomes: readonly MetricOutcome[]): boolean {
  return outcomes.every((outcome, index) => outcome.passed || !decides(metrics[index] ?? {}));
}

/** Weighted mean of metric scores; 1 when no metric weighs anything (nothing failed). */
export function weightedScore(metrics: readonly Metric[], outcomes: readonly MetricOutcome[]): number {
  let total = 0;
  let weights = 0;
  outcomes.forEach((outcome, index) => {
    const weight = metrics[index]?.weight ?? 1;
    total += weight * outcome.score;
    weights += weight;
  });
  return weights === 0 ? 1 : total / weights;
}

/** Marks the outcomes of weight-0 metrics so reports can tell "reported" from "deciding". */
export function withWeights(metrics: readonly Metric[], outcomes: MetricOutcome[]): MetricOutcome[] {
  return outcomes.map((outcome, index) => {
    const weight = metrics[index]?.weight;
    return weight === undefined ? outcome : { ...outcome, weight };
  });
}

/** What a run that did not finish still did: its usage, cost, tool calls and partial text. */
export function partialOf(error: unknown): ExecutionResult | undefined {
  return error instanceof AgentSessionError ? error.partial : undefined;
}

/**
 * An attempt whose agent run failed. Whatever the run did before it failed is kept (tokens, cost,
 * tool calls and results, the partial response), so the spend is right and the failure readable.
 */
export function failedAttempt(
  attempt: number,
  error: string,
  durationMs: number,
  partial?: ExecutionResult,
  turns?: TurnRecord[],
): CaseAttempt {
  return {
    attempt,
    passed: false,
    error,
    response: partial?.response ?? '',
    tool_calls: partial?.tool_calls ?? [],
    tool_results: partial?.tool_results ?? [],
    metrics: [],
    score: 0,
    token_usage: partial?.token_usage ?? emptyTokenUsage(),
    cost_usd: partial ? partial.cost_usd : 0,
    ...(partial ? unknownCostOf(partial) : {}),
    num_turns: partial?.num_turns ?? 0,
    duration_ms: durationMs,
    ...(partial?.governance ? { governance: partial.governance } : {}),
    ...(turns ? { turns } : {}),
  };
}

/** `cost_unknown_reason` of a result whose cost is null, for its attempt record. */
export function unknownCostOf(result: Pick<ExecutionResult, 'cost_usd' | 'cost_unknown_reason'>): {
  cost_unknown_reason?: string;
} {
  return result.cost_usd === null && result.cost_unknown_reason
    ? { cost_unknown_reason: result.cost_unknown_reason }
    : {};
}

/**
 * How long an aborted attempt waits for its backend to report what the run did (its partial
 * result). The Claude backend reports once its CLI has exited, which SIGTERM may take up to its
 * 3 s SIGKILL fallback; the attempt's duration still ends when it was stopped.
 */
const PARTIAL_GRACE_MS = 4_000;

/**
 * Settles with `work`, or, soon after the signal aborts, rejects: with `work`'s own error when it
 * follows within PARTIAL_GRACE_MS (the backend got the same signal, stopped the run and says what
 * it did), else with the signal's reason. So a timed-out or interrupted attempt ends when its time
 * is up, not whenever its backend finishes cleaning up.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      timer = setTimeout(() => reject(signal.reason), PARTIAL_GRACE_MS);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
