import pg from 'pg';

/** How a `PostgresEventListener` reconnects (ms). */
export interface ListenerBackoff {
  initialMs: number;
  maxMs: number;
}

const DEFAULT_BACKOFF: ListenerBackoff = { initialMs: 100, maxMs: 5_000 };

/**
 * One dedicated connection that `LISTEN`s on a channel (a pooled connection cannot: the pool
 * hands it to other queries). When PostgreSQL ends it (restart, failover, `pg_terminate_backend`)
 * it reconnects with doubling backoff. `onWake` runs on every notification and once after each
 * (re)connect, with LISTEN in place: the caller then reads what it missed from the store, so no
 * event is lost across a reconnect (a notification sent while disconnected is not replayed).
 */
export class PostgresEventListener {
  #client: pg.Client | undefined;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  #failures = 0;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly onWake: () => void,
    private readonly onLost: (reason: string) => void = () => {},
    private readonly backoff: ListenerBackoff = DEFAULT_BACKOFF,
  ) {}

  /** Connects (retrying in the background when PostgreSQL is not reachable yet). */
  start(): Promise<void> {
    return this.#connect();
  }

  /** Whether the LISTEN connection is up now. */
  get listening(): boolean {
    return this.#client !== undefined;
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 10_000 });
    let lost = false;
    const onGone = (reason: string) => {
      if (lost) return;
      lost = true;
      if (this.#client === client) this.#client = undefined;
      client.removeAllListeners('notification');
      void client.end().catch(() => {});
      if (this.#stopped) return;
      this.onLost(reason);
      this.#retry();
    };
    client.on('error', (error) => onGone(error.message));
    client.on('end', () => onGone('the connection ended'));
    try {
      await client.connect();
      client.on('notification', (message) => {
        if (message.channel === this.channel) this.onWake();
      });
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      onGone(error instanceof Error ? error.message : String(error));
      return;
    }
    if (this.#stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#failures = 0;
    // Caught up now: whatever was published while this connection was down is read from the store.
    this.onWake();
  }

  #retry(): void {
    const delay = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** this.#failures);
    this.#failures++;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#connect();
    }, delay);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }
}
