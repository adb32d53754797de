import type { ExecutionResult, TokenUsage } from '../backends/contract/index.js';
import { emptyTokenUsage } from '../backends/contract/index.js';
import type { MetricOutcome } from '../evals/metric.js';
import { mergeRetrievalContext, retrievalContextOf } from '../tools/retrieval/retrieval-context.js';
import { markTurn } from '../tools/run-traffic.js';
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

type Conversation = Awaited<ReturnType<AttemptOptions['runner']['openConversation']>>;
type ConversationTurn = NonNullable<PreparedCase['config']['turns']>[number];

/** What a conversation has gathered so far, turn by turn. */
interface ConversationState {
  turns: TurnRecord[];
  totals: ConversationTotals;
  last?: ExecutionResult;
  /** Novarch's verdicts of the conversation so far (each turn's summary covers the turns before it). */
  governance?: ExecutionResult['governance'];
  caseMetrics: MetricOutcome[];
  /**
   * What the retrieval tools returned so far in the conversation: a turn's RAG metrics read the
   * passages of that turn and the turns before it (the model still has those in its history).
   */
  retrieved: string[];
}

/** Sends one turn; a turn that fails part way still keeps what it spent, with the turns before it. */
async function sendTurn(
  conversation: Conversation,
  turn: ConversationTurn,
  run: AttemptRunOptions & { turnEnded?: () => void },
  state: ConversationState,
): Promise<ExecutionResult> {
  try {
    const result = await untilAborted(conversation.send(turn.input), run.signal);
    // limits: count the whole conversation; this turn's totals carry over to the next.
    run.turnEnded?.();
    return result;
  } catch (error) {
    // The turn in flight still spent tokens: keep them with the turns before it.
    const partial = partialOf(error);
    if (partial) {
      addToTotals(state.totals, partial);
      state.turns.push({
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
}

/** Grades one turn with its metrics (over the passages retrieved so far); returns the context it used. */
async function gradeTurn(
  testCase: PreparedCase,
  index: number,
  turn: ConversationTurn,
  result: ExecutionResult,
  base: Omit<TurnRecord, 'metrics' | 'passed'>,
  state: ConversationState,
  options: AttemptOptions,
  signal: AbortSignal,
): Promise<string[] | undefined> {
  state.retrieved = mergeRetrievalContext(state.retrieved, retrievalContextOf(result) ?? []);
  const context =
    turn.context ?? testCase.config.context ?? (state.retrieved.length ? [...state.retrieved] : undefined);
  const input = metricInput(turn.input, result, turn.ground_truth, context);
  const turnMetrics = testCase.turnMetrics[index] ?? [];
  const metrics = await untilAborted(
    evaluateAll(turnMetrics, input, { ...options.metricContext, signal }),
    signal,
  );
  state.turns.push({ ...base, metrics, passed: allDecidingPassed(turnMetrics, metrics) });
  return context;
}

/**
 * The case's metrics grade the conversation's final answer, and its budgets (turns, cost, tokens,
 * latency) the whole conversation: every turn's model turns and the wall time.
 */
function gradeConversation(
  testCase: PreparedCase,
  turn: ConversationTurn,
  result: ExecutionResult,
  context: string[] | undefined,
  state: ConversationState,
  metricContext: AttemptOptions['metricContext'],
  signal: AbortSignal,
  elapsed: () => number,
): Promise<MetricOutcome[]> {
  const { config } = testCase;
  const { totals } = state;
  const finalInput = {
    ...metricInput(turn.input, result, config.ground_truth ?? turn.ground_truth, context),
    durationMs: elapsed(),
    costUsd: totals.cost,
    ...(totals.cost === null && totals.costUnknownReason
      ? { costUnknownReason: totals.costUnknownReason }
      : {}),
    numTurns: totals.numTurns,
    tokenUsage: { ...totals.usage },
    conversation: state.turns.map((entry) => ({ input: entry.input, response: entry.response })),
  };
  return untilAborted(evaluateAll(testCase.metrics, finalInput, { ...metricContext, signal }), signal);
}

/** The attempt of a conversation that ran to its end (or to the kill it expected). */
function conversationAttempt(
  testCase: PreparedCase,
  attempt: number,
  state: ConversationState,
  elapsed: () => number,
): CaseAttempt {
  const { turns, totals, caseMetrics, last } = state;
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
  const state: ConversationState = {
    turns: [],
    totals: { usage: emptyTokenUsage(), cost: 0, numTurns: 0 },
    caseMetrics: [],
    retrieved: [],
  };
  const { turns, totals } = state;
  try {
    for (const [index, turn] of turnsConfig.entries()) {
      markTurn(run.traffic?.scope, index + 1);
      const result = await sendTurn(conversation, turn, run, state);
      state.last = result;
      if (result.governance) state.governance = result.governance;
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
          conversationSoFar(turns, totals, state.governance),
          turns,
        );
      }
      const context = await gradeTurn(testCase, index, turn, result, base, state, options, run.signal);
      if (index === turnsConfig.length - 1 || expectedKill) {
        state.caseMetrics = await gradeConversation(
          testCase,
          turn,
          result,
          context,
          state,
          options.metricContext,
          run.signal,
          elapsed,
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
      conversationSoFar(turns, totals, state.governance),
      turns,
    );
    return interrupted ? { ...failed, interrupted: true } : failed;
  } finally {
    await conversation.release();
  }
  return conversationAttempt(testCase, attempt, state, elapsed);
}
