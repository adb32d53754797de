import { type Kysely, sql } from 'kysely';
import type { StoreMigration } from './store-migrations.js';

/**
 * Migration 17: the `history_fields` indexes (migration 12) hold every column a history query
 * reads of the rows it finds, so the database answers from the index alone, never looking up
 * the table row of each entry (`action-history-queries.ts` says which query uses which):
 *
 * - tenant and agent scope: `(tenant_id, kind, type, path, value, created_at)` as before, then
 *   the columns checked and read on the entries found (`position`, `agent_id`, `record_seq`,
 *   `number`);
 * - session scope: `(session_id, kind, type, path, value, position)`, then `created_at`,
 *   `record_seq`, `number`;
 * - unfiltered sums in the tenant and agent scope, which have no value to look up: the number
 *   rows only (a partial index, `number is not null`), by `(tenant_id, kind, type, path,
 *   created_at)`, so the window is one range of it.
 *
 * The two indexes of migration 12 are replaced (the new ones start with their columns).
 */
export const HISTORY_COVERING_MIGRATION: StoreMigration = {
  version: 17,
  name: 'history fields: covering indexes, and the numbers by time for sums',
  // biome-ignore lint/suspicious/noExplicitAny: kysely's documented type for migrations
  async up(db: Kysely<any>) {
    await db.schema.dropIndex('history_fields_by_tenant').execute();
    await db.schema.dropIndex('history_fields_by_session').execute();
    await db.schema
      .createIndex('history_fields_tenant_window')
      .on('history_fields')
      .columns([
        'tenant_id',
        'kind',
        'type',
        'path',
        'value',
        'created_at',
        'position',
        'agent_id',
        'record_seq',
        'number',
      ])
      .execute();
    await db.schema
      .createIndex('history_fields_session_window')
      .on('history_fields')
      .columns([
        'session_id',
        'kind',
        'type',
        'path',
        'value',
        'position',
        'created_at',
        'record_seq',
        'number',
      ])
      .execute();
    await db.schema
      .createIndex('history_fields_tenant_numbers')
      .on('history_fields')
      .columns([
        'tenant_id',
        'kind',
        'type',
        'path',
        'created_at',
        'position',
        'agent_id',
        'record_seq',
        'number',
      ])
      .where(sql.ref('number'), 'is not', null)
      .execute();
  },
};
