import type { ExecutionResult } from '../execution-result.js';
import type { TurnOutcome } from './turn-observer.js';

/**
 * The error_reason of a run the backend stopped at one of its own limits, as both backends word
 * it (the AI SDK's MAX_TURNS_REASON, the Claude CLI's error_max_turns and error_max_budget_usd;
 * a unit test keeps them in step).
 */
export const LIMIT_REASONS: readonly string[] = ['max_turns limit reached', 'maximum budget (USD) reached'];

/**
 * How a turn ended, for metrics. `stoppedBy` says that serve asked it to stop before its result
 * (its wall-clock limit, or an interrupt): that names a failed turn's outcome, but a turn that
 * answered anyway (the stop came too late) is `ok`.
 */
export function turnOutcome(
  result: ExecutionResult | undefined,
  stoppedBy: 'limit' | 'interrupted' | undefined,
): TurnOutcome {
  if (result && !result.is_error) return 'ok';
  if (stoppedBy) return stoppedBy;
  if (!result) return 'error';
  return result.error_reason !== undefined && LIMIT_REASONS.includes(result.error_reason) ? 'limit' : 'error';
}
