import type { SessionEvent } from '../backends/contract/index.js';
import type { LiveTurn } from './live-turn.js';
import type { RequestLogLine } from './request-log.js';

/** Why a reader stopped: the turn finished, or it waits for an approval answer or an operator. */
export type TurnStop = 'finished' | 'approval' | 'hold' | 'disconnected';

/**
 * Reads a turn's events into `onEvent` until the turn finishes or waits (an `approval-request`, a
 * `hold-pending`, unless `throughHolds`: the event is delivered, then the reader stops). When `signal` aborts (the
 * client went away) while the turn runs, the turn is interrupted, so no agent process keeps
 * working for nobody; a turn parked at an interrupt is left waiting for its answer.
 */
export async function readTurn(
  turn: LiveTurn,
  onEvent: (event: SessionEvent) => void | Promise<void>,
  signal?: AbortSignal,
  options: { throughHolds?: boolean; log?: Partial<RequestLogLine> } = {},
): Promise<TurnStop> {
  const onAbort = () => {
    if (!turn.parked) void turn.interrupt();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) return 'disconnected';
      const event = await turn.next();
      if (event === undefined) return 'finished';
      if (event.type === 'finish' && options.log) {
        options.log.tokens = event.result.token_usage.total_tokens;
        options.log.costUsd = event.result.cost_usd;
      }
      await onEvent(event);
      if (event.type === 'approval-request') return 'approval';
      if (event.type === 'hold-pending' && !options.throughHolds) return 'hold';
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
