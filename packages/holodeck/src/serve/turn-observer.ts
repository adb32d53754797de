import type { SessionEvent } from '../backends/contract/index.js';
import type { ServeProtocol } from '../config/schema/serve-config-schema.js';

/**
 * How a served turn ended: `ok` it answered, `error` it failed (the model, a tool loop, the agent
 * process), `limit` it was stopped at a limit (max_turns, serve.turn_timeout), `interrupted` it was
 * stopped by someone (a client that went away, DELETE, shutdown).
 */
export type TurnOutcome = 'ok' | 'error' | 'limit' | 'interrupted';

/** The end of a turn as observers see it. */
export interface TurnEnding {
  outcome: TurnOutcome;
  /** Why it failed without a result (the agent process died). */
  failure?: string;
}

/** Follows one served turn: sees each of its events, then its end. */
export interface TurnObserver {
  event(event: SessionEvent): void;
  end(ending: TurnEnding): void;
}

/** What an observer is told of a turn when it starts. */
export interface TurnStart {
  sessionId: string;
  message: string;
  /** The protocol the turn was asked for through. */
  protocol: ServeProtocol;
}

/** Starts the observer of a turn of a session. */
export type ObserveTurn = (turn: TurnStart) => TurnObserver;

/** Every observer of `observers` sees each turn (spans and metrics, each when it is on). */
export function observeAll(observers: readonly ObserveTurn[]): ObserveTurn | undefined {
  if (observers.length === 0) return undefined;
  if (observers.length === 1) return observers[0];
  return (turn) => {
    const started = observers.map((observe) => observe(turn));
    return {
      event: (event) => {
        for (const observer of started) observer.event(event);
      },
      end: (ending) => {
        for (const observer of started) observer.end(ending);
      },
    };
  };
}
