import { type Kysely, sql } from 'kysely';
import type { StoreMigration } from './store-migrations.js';

/**
 * Migration 15: one verdict per action and kind (`insert-verdict.ts` says which wins). A store
 * written before may hold duplicates (two servers refusing one orphaned write): the earliest of
 * each (lowest `seq`) stays; the later ones move to `verdicts_set_aside`, unchanged, so their
 * audit links still name a record `novarch audit verify` finds as it was chained.
 */
export const VERDICT_UNIQUENESS_MIGRATION: StoreMigration = {
  version: 15,
  name: 'verdicts: one per action and kind (later duplicates set aside)',
  // biome-ignore lint/suspicious/noExplicitAny: kysely's documented type for migrations
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('verdicts_set_aside')
      .addColumn('seq', 'bigint', (column) => column.primaryKey())
      .addColumn('id', 'text', (column) => column.notNull().unique())
      .addColumn('action_id', 'text', (column) => column.notNull())
      .addColumn('session_id', 'text', (column) => column.notNull())
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('citations_json', 'text', (column) => column.notNull())
      .addColumn('source', 'text', (column) => column.notNull())
      .addColumn('decided_at', 'text', (column) => column.notNull())
      .addColumn('os_user', 'text')
      .addColumn('set_aside_at', 'text', (column) => column.notNull())
      .execute();
    const later = sql`exists (
      select 1 from verdicts as earlier
      where earlier.action_id = verdicts.action_id and earlier.kind = verdicts.kind and earlier.seq < verdicts.seq
    )`;
    await sql`
      insert into verdicts_set_aside
        (seq, id, action_id, session_id, kind, citations_json, source, decided_at, os_user, set_aside_at)
      select seq, id, action_id, session_id, kind, citations_json, source, decided_at, os_user, ${new Date().toISOString()}
      from verdicts where ${later}`.execute(db);
    await sql`delete from verdicts where ${later}`.execute(db);
    await db.schema
      .createIndex('verdicts_one_per_kind')
      .on('verdicts')
      .columns(['action_id', 'kind'])
      .unique()
      .execute();
  },
};
