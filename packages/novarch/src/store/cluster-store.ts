import { type Kysely, sql } from 'kysely';
import type { ClusterTables } from './cluster-tables.js';

/** The channel `NOTIFY` wakes the servers on when an event is added to `server_events`. */
export const SERVER_EVENTS_CHANNEL = 'novarch_server_events';

/** PostgreSQL's clock in epoch ms: every server compares leases and windows on the same clock. */
const DB_NOW_MS = sql<string>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/** One server process, as its lease row says. */
export interface ServerInstance {
  id: string;
  host: string;
  pid: number;
}

/** A write a server recorded and was still judging (no pass or kill verdict, no hold). */
export interface UnjudgedAction {
  actionId: string;
  sessionId: string;
}

/** One stored live event. */
export interface StoredServerEvent {
  seq: number;
  origin: string;
  eventJson: string;
}

/**
 * What several `novarch serve` processes on one PostgreSQL share, on its own small pool beside the
 * store's (as the identity tables are): instance leases and the judgements each server leaves,
 * the live event feed, failed sign-ins, webhook claims. Every time is PostgreSQL's clock.
 */
export class ClusterStore {
  constructor(
    private readonly db: Kysely<ClusterTables>,
    private readonly destroy: () => Promise<void>,
  ) {}

  /** Adds this server's lease row, valid for `leaseMs` from now. */
  async register(instance: ServerInstance, leaseMs: number): Promise<void> {
    await this.db
      .insertInto('server_instances')
      .values({
        id: instance.id,
        host: instance.host,
        pid: instance.pid,
        started_at_ms: DB_NOW_MS,
        expires_at_ms: sql`${DB_NOW_MS} + ${leaseMs}`,
      })
      .execute();
  }

  /**
   * Extends the lease by `leaseMs` from now, noting since when the server's writes still being
   * judged were recorded; false when it was already given up for dead (reaped).
   */
  async renew(id: string, leaseMs: number, judgingSince: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('server_instances')
      .set({ expires_at_ms: sql`${DB_NOW_MS} + ${leaseMs}`, judging_since: judgingSince.toISOString() })
      .where('id', '=', id)
      .where('reaper_id', 'is', null)
      .where('stopped_at_ms', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Ends the lease at a clean shutdown (the server's own cut refused what it was judging). */
  async stop(id: string): Promise<void> {
    await this.db
      .updateTable('server_instances')
      .set({ stopped_at_ms: DB_NOW_MS, expires_at_ms: DB_NOW_MS })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Claims the reaping of every server whose lease expired more than `graceMs` ago and that nobody
   * reaped yet (or whose reaper's own lease expired before it finished; or this reaper's own unfinished ones):
   * one survivor each.
   */
  async claimExpired(reaperId: string, graceMs: number): Promise<ServerInstance[]> {
    const rows = await this.db
      .updateTable('server_instances')
      .set({ reaper_id: reaperId })
      .where('id', '<>', reaperId)
      .where('reaped_at_ms', 'is', null)
      .where(sql<boolean>`expires_at_ms + ${graceMs} < ${DB_NOW_MS}`)
      .where((where) =>
        where.or([
          where('reaper_id', 'is', null),
          where('reaper_id', '=', reaperId),
          // A reaper that is no longer live: expired, or its row already pruned.
          where.not(
            where.exists(
              where
                .selectFrom('server_instances as reaper')
                .select('reaper.id')
                .whereRef('reaper.id', '=', 'server_instances.reaper_id')
                .where(sql<boolean>`reaper.expires_at_ms >= ${DB_NOW_MS}`),
            ),
          ),
        ]),
      )
      .returning(['id', 'host', 'pid'])
      .execute();
    return rows;
  }

  /**
   * The writes `instanceId` recorded that have neither a pass or kill verdict nor a hold: only
   * those since its last `judging_since` (all of them when it never renewed), so reaping a server
   * that ran for months reads its last seconds, not its history.
   */
  async unjudgedActions(instanceId: string): Promise<UnjudgedAction[]> {
    const lease = await this.db
      .selectFrom('server_instances')
      .select('judging_since')
      .where('id', '=', instanceId)
      .executeTakeFirst();
    const since = lease?.judging_since ?? '';
    const rows = await this.db
      .selectFrom('actions')
      .select(['actions.id', 'actions.session_id'])
      .where('actions.judged_by', '=', instanceId)
      .where('actions.created_at', '>=', since)
      .where((where) =>
        where.not(
          where.exists(
            where
              .selectFrom('verdicts')
              .select('verdicts.action_id')
              .whereRef('verdicts.action_id', '=', 'actions.id')
              .where('verdicts.kind', '<>', 'hold'),
          ),
        ),
      )
      .where((where) =>
        where.not(
          where.exists(
            where
              .selectFrom('holds')
              .select('holds.action_id')
              .whereRef('holds.action_id', '=', 'actions.id'),
          ),
        ),
      )
      .orderBy('actions.seq')
      .execute();
    return rows.map((row) => ({ actionId: row.id, sessionId: row.session_id }));
  }

  /** Marks a reaped server done, with how many of its writes were refused. */
  async finishReap(instanceId: string, reaperId: string, refused: number): Promise<void> {
    await this.db
      .updateTable('server_instances')
      .set({ reaped_at_ms: DB_NOW_MS, orphans_refused: refused })
      .where('id', '=', instanceId)
      .where('reaper_id', '=', reaperId)
      .execute();
  }

  /**
   * Deletes the lease rows of servers reaped more than `ageMs` ago (their orphaned writes were
   * all refused then), whose lease expired as long ago: a row only matters until its server's
   * judgements were taken over. Returns how many went.
   */
  async pruneInstances(ageMs: number): Promise<number> {
    const result = await this.db
      .deleteFrom('server_instances')
      .where('reaped_at_ms', 'is not', null)
      .where(sql<boolean>`reaped_at_ms < ${DB_NOW_MS} - ${ageMs}`)
      .where(sql<boolean>`expires_at_ms < ${DB_NOW_MS} - ${ageMs}`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Adds an event to the feed and wakes every listening server (NOTIFY is sent at commit). */
  async publishEvent(origin: string, eventJson: string): Promise<void> {
    await sql`with added as (
        insert into server_events (origin, event_json, created_at_ms) values (${origin}, ${eventJson}, ${DB_NOW_MS})
        returning seq
      ) select pg_notify(${SERVER_EVENTS_CHANNEL}, seq::text) from added`.execute(this.db);
  }

  /** The events after `seq`, oldest first (at most `limit`). */
  async eventsAfter(seq: number, limit: number): Promise<StoredServerEvent[]> {
    const rows = await this.db
      .selectFrom('server_events')
      .select(['seq', 'origin', 'event_json'])
      .where('seq', '>', seq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ seq: Number(row.seq), origin: row.origin, eventJson: row.event_json }));
  }

  /** The last event's sequence (0: none): a server starting reads only what comes after. */
  async lastEventSeq(): Promise<number> {
    const row = await this.db
      .selectFrom('server_events')
      .select((select) => select.fn.max('seq').as('seq'))
      .executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  /** Forgets events older than `ageMs` (live events matter for seconds; the store keeps the facts). */
  async pruneEvents(ageMs: number): Promise<void> {
    await this.db
      .deleteFrom('server_events')
      .where(sql<boolean>`created_at_ms < ${DB_NOW_MS} - ${ageMs}`)
      .execute();
  }

  /**
   * The failure times (epoch ms, oldest first) of `client` within the last `windowMs`, and the
   * database's clock now.
   */
  async recentFailures(client: string, windowMs: number): Promise<{ times: number[]; now: number }> {
    const rows = await this.db
      .selectFrom('auth_failures')
      .select(['failed_at_ms', DB_NOW_MS.as('now')])
      .where('client_key', '=', client)
      .where(sql<boolean>`failed_at_ms > ${DB_NOW_MS} - ${windowMs}`)
      .orderBy('failed_at_ms')
      .execute();
    if (rows.length > 0)
      return { times: rows.map((row) => Number(row.failed_at_ms)), now: Number(rows[0]?.now) };
    const clock = await sql<{ now: string }>`select ${DB_NOW_MS} as now`.execute(this.db);
    return { times: [], now: Number(clock.rows[0]?.now) };
  }

  /** Records one failed sign-in of `client`, and forgets its failures older than `windowMs`. */
  async recordFailure(client: string, windowMs: number): Promise<void> {
    await this.db
      .insertInto('auth_failures')
      .values({ client_key: client, failed_at_ms: DB_NOW_MS })
      .execute();
    await this.db
      .deleteFrom('auth_failures')
      .where('client_key', '=', client)
      .where(sql<boolean>`failed_at_ms <= ${DB_NOW_MS} - ${windowMs}`)
      .execute();
  }

  /** Forgets every failure older than `windowMs` (addresses that never came back). */
  async pruneFailures(windowMs: number): Promise<void> {
    await this.db
      .deleteFrom('auth_failures')
      .where(sql<boolean>`failed_at_ms <= ${DB_NOW_MS} - ${windowMs}`)
      .execute();
  }

  /**
   * Claims a pending webhook delivery for `owner` for `leaseMs`: true when it is unclaimed, its
   * claim expired, or `owner` holds it already; false when another live server holds it or it is
   * no longer pending. One statement: two servers never both hold a claim.
   */
  async claimDelivery(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ claimed_by: owner, claim_expires_at_ms: sql`${DB_NOW_MS} + ${leaseMs}` })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where((where) =>
        where.or([
          where('claimed_by', 'is', null),
          where('claimed_by', '=', owner),
          sql<boolean>`claim_expires_at_ms < ${DB_NOW_MS}`,
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The ids of pending deliveries nobody holds a live claim on, due now (at most `limit`). */
  async claimableDeliveries(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', new Date().toISOString())
      .where((where) =>
        where.or([where('claimed_by', 'is', null), sql<boolean>`claim_expires_at_ms < ${DB_NOW_MS}`]),
      )
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  close(): Promise<void> {
    return this.destroy();
  }
}
