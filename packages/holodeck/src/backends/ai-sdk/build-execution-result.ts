import type { ValidateFunction } from 'ajv';
import type { ExecutionResult, TokenUsage } from '../contract/index.js';
import type { ModelPricing } from '../pricing/model-pricing.js';
import { costOfUsage } from '../pricing/token-prices.js';
import { describeRunError, type ErrorContext } from './describe-run-error.js';
import { readStructuredOutput } from './read-structured-output.js';
import type { TurnState } from './turn-state.js';

/** Same text as the Claude backend, so reports and tests read alike. */
export const MAX_TURNS_REASON = 'max_turns limit reached';

/** What a finished run's result needs besides its stream. */
export interface ResultContext extends ErrorContext {
  startedAt: number;
  /** Most model steps the run was allowed. */
  maxTurns: number;
  /** Compiled `response_format`, when one is configured. */
  validateStructuredOutput?: ValidateFunction;
  sessionId?: string;
  /** How this model's runs are priced (`pricing:`, the price table, or unknown with a reason). */
  pricing: ModelPricing;
}

/**
 * The cost of `usage` at the model's prices (Chat Completions counts cached tokens inside
 * prompt_tokens): the run's total, and its progress while it runs (report-run-progress.ts).
 */
export function costOf(
  usage: TokenUsage,
  pricing: ModelPricing,
): Pick<ExecutionResult, 'cost_usd' | 'cost_unknown_reason'> {
  if (pricing.kind === 'prices') return { cost_usd: costOfUsage(usage, pricing.prices, 'cache-included') };
  return {
    cost_usd: null,
    cost_unknown_reason: pricing.kind === 'unknown' ? pricing.reason : 'the provider reported no cost',
  };
}

/**
 * Turns the state of an ended run into an ExecutionResult. Failed runs (`is_error`): an API error
 * after retries, an abort, max turns reached while the model still wanted tools, or an answer
 * that is not valid against response_format. Chat Completions reports no cost: it is the tokens at
 * the model's prices, or null with the reason when they are unknown.
 */
export function buildExecutionResult(state: TurnState, context: ResultContext): ExecutionResult {
  const base: ExecutionResult = {
    response: state.finalText,
    tool_calls: state.toolCalls,
    tool_results: state.toolResults,
    token_usage: state.usage,
    num_turns: state.steps,
    is_error: false,
    ...costOf(state.usage, context.pricing),
    duration_ms: Date.now() - context.startedAt,
    ...(context.sessionId ? { session_id: context.sessionId } : {}),
  };
  const fail = (reason: string): ExecutionResult => ({ ...base, is_error: true, error_reason: reason });
  if (state.abort) return fail(`the run was stopped${state.abort.reason ? `: ${state.abort.reason}` : ''}`);
  if (state.error) return fail(describeRunError(state.error.value, context));
  if (state.steps === 0) return fail('the model API ended the run without an answer');
  if (state.lastFinishReason === 'tool-calls' && state.steps >= context.maxTurns)
    return fail(MAX_TURNS_REASON);

  const validate = context.validateStructuredOutput;
  if (!validate) return base;
  const reading = readStructuredOutput(state.finalText, validate, state.lastFinishReason === 'length');
  // Only a valid object is structured output; an invalid one stays in `response` as the model wrote it.
  if (!reading.valid) return fail(reading.reason);
  return { ...base, structured_output: reading.value, response: JSON.stringify(reading.value) };
}
