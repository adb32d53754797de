import { type Kysely, sql } from 'kysely';
import type { StoreMigration } from './store-migrations.js';

/**
 * Migration 13: what several `novarch serve` processes on one PostgreSQL share (SQLite gets the
 * same tables, unused: a SQLite store has one server). Times the servers compare are epoch ms
 * from PostgreSQL's clock (`*_ms` columns), so servers with skewed clocks agree on expiry.
 */
export const CLUSTER_MIGRATION: StoreMigration = {
  version: 13,
  name: 'several servers: instance leases, event feed, sign-in failures, webhook claims, judged by',
  // biome-ignore lint/suspicious/noExplicitAny: kysely's documented type for migrations
  async up(db: Kysely<any>, dialect) {
    // One row per server process: its lease, renewed while it runs; once expired, one survivor
    // (`reaper_id`) refuses the judgements it left and sets `reaped_at_ms`.
    await db.schema
      .createTable('server_instances')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('host', 'text', (column) => column.notNull())
      .addColumn('pid', 'integer', (column) => column.notNull())
      .addColumn('started_at_ms', 'bigint', (column) => column.notNull())
      .addColumn('expires_at_ms', 'bigint', (column) => column.notNull())
      .addColumn('stopped_at_ms', 'bigint')
      .addColumn('reaper_id', 'text')
      .addColumn('reaped_at_ms', 'bigint')
      .addColumn('orphans_refused', 'integer')
      // Every action of this server created before it (ISO time, the server's clock, as actions'
      // `created_at`) has its decision stored: a reaper reads only the actions after it.
      .addColumn('judging_since', 'text')
      .execute();
    // Live events (holds created and decided, kills) in order: each server reads those after the
    // last it saw, woken by NOTIFY, and after a reconnect catches up from here.
    await db.schema
      .createTable('server_events')
      .addColumn('seq', dialect.sequenceType, (column) => dialect.autoIncrementPrimaryKey(column))
      .addColumn('origin', 'text', (column) => column.notNull())
      .addColumn('event_json', 'text', (column) => column.notNull())
      .addColumn('created_at_ms', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('server_events_by_time')
      .on('server_events')
      .column('created_at_ms')
      .execute();
    // Failed sign-ins per client address, counted across servers.
    await db.schema
      .createTable('auth_failures')
      .addColumn('seq', dialect.sequenceType, (column) => dialect.autoIncrementPrimaryKey(column))
      .addColumn('client_key', 'text', (column) => column.notNull())
      .addColumn('failed_at_ms', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('auth_failures_by_client')
      .on('auth_failures')
      .columns(['client_key', 'failed_at_ms'])
      .execute();
    // A webhook attempt is made by the server holding the delivery's claim until it expires.
    await db.schema.alterTable('webhook_deliveries').addColumn('claimed_by', 'text').execute();
    await db.schema.alterTable('webhook_deliveries').addColumn('claim_expires_at_ms', 'bigint').execute();
    // The server whose judgement an action is (null: recorded by another process, e.g. an
    // embedded engine). On PostgreSQL it defaults to the connection's `novarch.instance_id`,
    // which a server sets on each connection of its pool: no query of the store changes.
    await db.schema.alterTable('actions').addColumn('judged_by', 'text').execute();
    if (dialect.rowLocks)
      await sql`alter table actions alter column judged_by set default nullif(current_setting('novarch.instance_id', true), '')`.execute(
        db,
      );
    await db.schema
      .createIndex('actions_by_judge')
      .on('actions')
      .columns(['judged_by', 'created_at'])
      .where(sql.ref('judged_by'), 'is not', null)
      .execute();
  },
};
