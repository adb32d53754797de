import type { HoldRecord, SessionRecord } from '../model/records.js';

/** What happened, as `GET /v1/events` streams it (and a notifier may forward it). */
export interface ServerEvent {
  type: 'hold-created' | 'hold-decided' | 'session-killed';
  tenantId: string;
  teamId: string;
  sessionId: string;
  hold?: HoldRecord;
  at: string;
}

export type ServerEventListener = (event: ServerEvent) => void;

/**
 * The server's in-process event bus: holds created and decided, sessions killed, through this
 * server. Waiting requests wake on it at once (they poll the store too, for decisions made
 * elsewhere, e.g. a local `novarch holds approve` on the same store). Listeners never throw into
 * the emitter: a failing listener must not change a decision.
 */
export class ServerEvents {
  readonly #listeners = new Set<ServerEventListener>();
  #relay: ServerEventListener | undefined;

  /**
   * Sends every event emitted here on to the other servers of the store too (`ServerEventRelay`
   * on PostgreSQL); their events come back through `deliver`. Without a relay (SQLite, tests) the
   * bus is this process's alone.
   */
  relayTo(relay: ServerEventListener | undefined): void {
    this.#relay = relay;
  }

  /** An event another server emitted: told to this server's listeners, not relayed again. */
  deliver(event: ServerEvent): void {
    this.#tell(event);
  }

  subscribe(listener: ServerEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emitHold(type: 'hold-created' | 'hold-decided', session: SessionRecord, hold: HoldRecord): void {
    this.#emit({
      type,
      tenantId: session.tenantId,
      teamId: session.teamId,
      sessionId: session.id,
      hold,
      at: now(),
    });
  }

  emitKill(session: SessionRecord): void {
    this.#emit({
      type: 'session-killed',
      tenantId: session.tenantId,
      teamId: session.teamId,
      sessionId: session.id,
      at: now(),
    });
  }

  #emit(event: ServerEvent): void {
    this.#tell(event);
    try {
      this.#relay?.(event);
    } catch {
      // reporting only: the decision is stored, other servers' waiters poll the store too
    }
  }

  #tell(event: ServerEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // reporting only
      }
    }
  }
}

function now(): string {
  return new Date().toISOString();
}
