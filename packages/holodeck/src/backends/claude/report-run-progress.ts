import type { ProgressListener, RunProgress } from '../contract/index.js';
import { costOfUsage, type TokenPrices } from '../pricing/token-prices.js';
import { mapUsage } from './build-execution-result.js';
import type { TurnState } from './run-accumulator.js';

/**
 * The run so far as the contract's RunProgress: the usage of every response counted once (the
 * accumulator's streamed sum), and its cost at `pricing:` prices with the same function as the
 * run's total. Without `pricing:` the CLI prices its runs only in their result: null until then.
 */
export function progressOf(state: TurnState, prices: TokenPrices | undefined): RunProgress {
  const usage = mapUsage(state.streamedUsage);
  return {
    token_usage: usage,
    messages: state.streamedResponses,
    tool_calls: state.toolCalls.length,
    cost_usd: prices ? costOfUsage(usage, prices, 'cache-apart') : null,
    wants_next_message: state.wantsNextMessage,
  };
}

/** Calls `listener` with the run's progress after each SDK message that changed it. */
export function progressReporter(
  listener: ProgressListener | undefined,
  prices: TokenPrices | undefined,
): (state: TurnState) => void {
  if (!listener) return () => {};
  let last = '';
  return (state) => {
    const progress = progressOf(state, prices);
    const key = JSON.stringify(progress);
    if (key === last) return;
    last = key;
    listener(progress);
  };
}
