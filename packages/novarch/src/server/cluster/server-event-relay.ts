import type { ClusterStore } from '../../store/cluster-store.js';
import { SERVER_EVENTS_CHANNEL } from '../../store/cluster-store.js';
import { PostgresEventListener } from '../../store/postgres-event-listener.js';
import { ServerEventSchema } from '../../wire/identity-schemas.js';
import type { ServerEvent, ServerEvents } from '../server-events.js';

/** How far back each read looks, for events whose insert committed after a later one's (seq gaps). */
const LOOKBACK = 256;
/** How many sequences of events already handled are remembered (to skip them in the look-back). */
const SEEN_LIMIT = 4_096;
/** Events older than this are deleted from the feed (ms): they are live news, the store keeps the facts. */
const RETENTION_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 60_000;

/**
 * Carries the server's live events (holds created and decided, kills) to every server of the
 * same PostgreSQL: each one emitted here is added to `server_events`, with a NOTIFY; each server
 * LISTENs on a dedicated connection and, woken, reads the events after the last it handled, so
 * an operator deciding on server A wakes the agent waiting on server B at once, and `/v1/events`
 * and live console pages of every server see it. After a lost connection the listener reconnects
 * and the relay reads what it missed from the feed (kept 10 minutes).
 */
export class ServerEventRelay {
  readonly #listener: PostgresEventListener;
  readonly #seen = new Set<number>();
  #last = 0;
  #reading: Promise<void> | undefined;
  #again = false;
  #prune: NodeJS.Timeout | undefined;
  #lostReported = false;

  constructor(
    private readonly cluster: ClusterStore,
    postgresUrl: string,
    private readonly instanceId: string,
    private readonly events: ServerEvents,
    private readonly log: (message: string) => void,
  ) {
    this.#listener = new PostgresEventListener(
      postgresUrl,
      SERVER_EVENTS_CHANNEL,
      () => this.#wake(),
      () => {
        // Once per outage; what PostgreSQL said is not repeated (a restart is routine).
        if (this.#lostReported) return;
        this.#lostReported = true;
        log(
          'novarch serve: the live event connection to PostgreSQL was lost: reconnecting (events of other servers meanwhile are read once it is back)',
        );
      },
    );
  }

  /** Starts listening; events published from now on reach this server. */
  async start(): Promise<void> {
    this.#last = await this.cluster.lastEventSeq();
    this.events.relayTo((event) => this.#publish(event));
    await this.#listener.start();
    this.#prune = setInterval(() => {
      this.cluster.pruneEvents(RETENTION_MS).catch(() => {});
    }, PRUNE_EVERY_MS);
    this.#prune.unref();
  }

  /** Whether the LISTEN connection is up (tests, the reconnect). */
  get listening(): boolean {
    return this.#listener.listening;
  }

  /** Reads what is new now (the listener calls it; exposed so a test can force a catch-up). */
  catchUp(): Promise<void> {
    this.#wake();
    return this.#reading ?? Promise.resolve();
  }

  async stop(): Promise<void> {
    this.events.relayTo(undefined);
    if (this.#prune !== undefined) clearInterval(this.#prune);
    await this.#listener.stop();
    await this.#reading;
  }

  #publish(event: ServerEvent): void {
    this.cluster
      .publishEvent(this.instanceId, JSON.stringify(event))
      .catch(() =>
        this.log(
          'novarch serve: a live event could not be sent to the other servers (the database is unreachable); their waiters still see the decision in the store',
        ),
      );
  }

  /** One read at a time; a wake during a read makes it read once more. */
  #wake(): void {
    if (this.#reading !== undefined) {
      this.#again = true;
      return;
    }
    this.#reading = this.#read().finally(() => {
      this.#reading = undefined;
      if (this.#again) {
        this.#again = false;
        this.#wake();
      }
    });
  }

  async #read(): Promise<void> {
    try {
      for (;;) {
        const batch = await this.cluster.eventsAfter(Math.max(0, this.#last - LOOKBACK), 500);
        const fresh = batch.filter((stored) => !this.#seen.has(stored.seq));
        for (const stored of fresh) {
          this.#remember(stored.seq);
          if (stored.origin === this.instanceId) continue;
          const parsed = ServerEventSchema.safeParse(safeJson(stored.eventJson));
          if (parsed.success) this.events.deliver(parsed.data);
        }
        this.#lostReported = false;
        if (fresh.length === 0 || batch.length < 500) return;
      }
    } catch {
      // The database is unreachable: the next wake (the reconnect's catch-up) reads them.
    }
  }

  #remember(seq: number): void {
    this.#seen.add(seq);
    if (seq > this.#last) this.#last = seq;
    if (this.#seen.size > SEEN_LIMIT) {
      const oldest = this.#seen.values().next();
      if (!oldest.done) this.#seen.delete(oldest.value);
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
