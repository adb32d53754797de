import type { ProgressListener } from '../contract/index.js';
import type { ModelPricing } from '../pricing/model-pricing.js';
import { costOf } from './build-execution-result.js';
import type { TurnState } from './turn-state.js';

/** The stream parts after which a run's progress may have changed. */
const PROGRESS_PARTS = new Set(['start-step', 'tool-call', 'finish-step']);

/**
 * Calls `listener` with the run's progress after each stream part that changed it: a step started
 * (a model response in progress), a tool call, a step finished (its usage added). The usage is
 * the sum over finished steps (TurnState.usage, the result's own), the cost that usage at the
 * model's prices with the result's own function.
 */
export function progressReporter(
  listener: ProgressListener | undefined,
  pricing: ModelPricing,
): (part: { type: string }, state: TurnState) => void {
  if (!listener) return () => {};
  return (part, state) => {
    if (!PROGRESS_PARTS.has(part.type)) return;
    listener({
      token_usage: { ...state.usage },
      messages: state.stepsStarted,
      tool_calls: state.toolCalls.length,
      cost_usd: costOf(state.usage, pricing).cost_usd,
      wants_next_message: state.wantsNextMessage,
    });
  };
}
