import type { ExecutionResult, TokenUsage } from '../backends/contract/index.js';
import { emptyTokenUsage } from '../backends/contract/index.js';
import type { MetricOutcome } from '../evals/metric.js';
import { markTurn } from '../recording/recording-scope.js';
import { mergeRetrievalContext, retrievalContextOf } from '../tools/retrieval/retrieval-context.js';
import {
  allDecidingPassed,
  failedAttempt,
  partialOf,
  untilAborted,
  weightedScore,
} from './attempt-outcome.js';
import type { AttemptRunOptions } from './attempt-runner.js';
import { addCost, describe, evaluateAll, metricInput, runFailure, stopReason } from './grade-attempt.js';
import type { PreparedCase } from './prepare-suite.js';
import type { CaseAttempt, TurnRecord } from './report/run-report.js';
import type { AttemptOptions } from './run-attempt.js';

interface ConversationTotals {
  usage: TokenUsage;
  /** The sum of every turn's own cost (each result is its turn's, not a running total). */
  cost: number | null;
  /** Why the first turn of unknown cost had none. */
  costUnknownReason?: string;
  numTurns: number;
}

function addToTotals(totals: ConversationTotals, result: ExecutionResult): void {
  totals.cost = addCost(totals.cost, result.cost_usd);
  if (result.cost_usd === null && result.cost_unknown_reason)
    totals.costUnknownReason ??= result.cost_unknown_reason;
  totals.numTurns += result.num_turns;
  for (const key of Object.keys(totals.usage) as (keyof TokenUsage)[])
    totals.usage[key] += result.token_usage[key];
}

/** The conversation so far as one ExecutionResult, for an attempt that stopped part way. */
function conversationSoFar(
  turns: TurnRecord[],
  totals: ConversationTotals,
  governance?: ExecutionResult['governance'],
): ExecutionResult {
  return {
    ...(governance ? { governance } : {}),
    response: turns.at(-1)?.response ?? '',
    tool_calls: turns.flatMap((turn) => turn.tool_calls),
    tool_results: turns.flatMap((turn) => turn.tool_results),
    token_usage: totals.usage,
    num_turns: totals.numTurns,
    is_error: true,
    cost_usd: totals.cost,
    ...(totals.cost === null && totals.costUnknownReason
      ? { cost_unknown_reason: totals.costUnknownReason }
      : {}),
    duration_ms: 0,
  };
}

/** Runs one attempt of a multi-turn case: its turns in one conversation, each graded, then the case. */
export async function runConversation(
  testCase: PreparedCase,
  attempt: number,
  options: AttemptOptions,
  run: AttemptRunOptions & { turnEnded?: () => void },
  elapsed: () => number,
): Promise<CaseAttempt> {
  const { config } = testCase;
  const turnsConfig = config.turns ?? [];
  const conversation = await untilAborted(options.runner.openConversation(run), run.signal);
  const turns: TurnRecord[] = [];
  const totals: ConversationTotals = { usage: emptyTokenUsage(), cost: 0, numTurns: 0 };
  let last: ExecutionResult | undefined;
  // Novarch's verdicts of the conversation so far (each turn's summary covers the turns before it).
  let governance: ExecutionResult['governance'];
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
        // limits: count the whole conversation; this turn's totals carry over to the next.
        run.turnEnded?.();
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
      if (result.governance) governance = result.governance;
      addToTotals(totals, result);
      const base = {
        input: turn.input,
        response: result.response,
        tool_calls: result.tool_calls,
        tool_results: result.tool_results,
      };
      // A turn Novarch killed is what a case expecting the kill is about: grade it, run no more turns.
      const expectedKill = result.governance?.killed === true && config.expect_killed === true;
      if (result.is_error && !expectedKill) {
        const reason = runFailure(result, config);
        turns.push({ ...base, metrics: [], passed: false, error: reason });
        return failedAttempt(
          attempt,
          `turn ${index + 1}: ${reason}`,
          elapsed(),
          conversationSoFar(turns, totals, governance),
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
      if (index === turnsConfig.length - 1 || expectedKill) {
        // The case's metrics grade the conversation's final answer, and its budgets (turns, cost,
        // tokens, latency) the whole conversation: every turn's model turns and the wall time.
        const finalInput = {
          ...metricInput(turn.input, result, config.ground_truth ?? turn.ground_truth, context),
          durationMs: elapsed(),
          costUsd: totals.cost,
          ...(totals.cost === null && totals.costUnknownReason
            ? { costUnknownReason: totals.costUnknownReason }
            : {}),
          numTurns: totals.numTurns,
          tokenUsage: { ...totals.usage },
          conversation: turns.map((entry) => ({ input: entry.input, response: entry.response })),
        };
        caseMetrics = await untilAborted(
          evaluateAll(testCase.metrics, finalInput, { ...options.metricContext, signal: run.signal }),
          run.signal,
        );
        if (expectedKill) break;
      }
    }
  } catch (error) {
    const timedOut = !options.signal?.aborted && run.signal.aborted;
    const { reason, interrupted } = timedOut
      ? { reason: describe(run.signal.reason), interrupted: false }
      : stopReason(error, options.signal, run.signal, 0);
    const failed = failedAttempt(
      attempt,
      reason,
      elapsed(),
      conversationSoFar(turns, totals, governance),
      turns,
    );
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
    ...(totals.cost === null && totals.costUnknownReason
      ? { cost_unknown_reason: totals.costUnknownReason }
      : {}),
    num_turns: totals.numTurns,
    duration_ms: elapsed(),
    turns,
    ...(last?.governance ? { governance: last.governance } : {}),
  };
}
