import type { Kysely } from 'kysely';
import type { StoreMigration } from './store-migrations.js';

/**
 * Migration 16: which Slack messages show which hold (`slack-message-queries.ts`), in the store
 * so that a restarted server, or another server of the same store, updates them when the hold is
 * decided. One row per hold, inserted by the one server that posts it.
 */
export const SLACK_MESSAGES_MIGRATION: StoreMigration = {
  version: 16,
  name: 'slack: the messages posted for each hold',
  // biome-ignore lint/suspicious/noExplicitAny: kysely's documented type for migrations
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('slack_hold_messages')
      .addColumn('hold_id', 'text', (column) => column.primaryKey().references('holds.id'))
      // `[{channel, ts}]` once posted; null while the claiming server posts.
      .addColumn('messages_json', 'text')
      // How far the messages show the hold (`slackRank`): each update claims a higher rank, once.
      .addColumn('shown_rank', 'integer', (column) => column.notNull())
      .addColumn('claimed_at', 'text', (column) => column.notNull())
      .execute();
  },
};
