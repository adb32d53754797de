import type { StoreMigration } from './store-migrations.js';

/** Migration 1: the tables every later migration builds on. */
export const INITIAL_SCHEMA_MIGRATION: StoreMigration = {
  version: 1,
  name: 'sessions, evidence, actions, verdicts, holds',
  async up(db, dialect) {
    // `seq` orders rows by insertion (timestamps tie within a millisecond); `id` is what callers see.
    await db.schema
      .createTable('sessions')
      .addColumn('seq', dialect.sequenceType, (column) => dialect.autoIncrementPrimaryKey(column))
      .addColumn('id', 'text', (column) => column.notNull().unique())
      .addColumn('tenant_id', 'text', (column) => column.notNull())
      .addColumn('team_id', 'text', (column) => column.notNull())
      .addColumn('agent_id', 'text', (column) => column.notNull())
      .addColumn('started_at', 'text', (column) => column.notNull())
      .addColumn('hold_wait_seconds', 'double precision', (column) => column.notNull())
      .addColumn('killed_at', 'text')
      .addColumn('kill_reason', 'text')
      .execute();
    await db.schema
      .createTable('evidence')
      .addColumn('seq', dialect.sequenceType, (column) => dialect.autoIncrementPrimaryKey(column))
      .addColumn('id', 'text', (column) => column.notNull().unique())
      .addColumn('session_id', 'text', (column) => column.notNull().references('sessions.id'))
      .addColumn('tool_name', 'text', (column) => column.notNull())
      .addColumn('input_json', 'text')
      .addColumn('output_json', 'text')
      .addColumn('is_error', 'integer', (column) => column.notNull())
      .addColumn('started_at', 'text', (column) => column.notNull())
      .addColumn('finished_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('actions')
      .addColumn('seq', dialect.sequenceType, (column) => dialect.autoIncrementPrimaryKey(column))
      .addColumn('id', 'text', (column) => column.notNull().unique())
      .addColumn('session_id', 'text', (column) => column.notNull().references('sessions.id'))
      .addColumn('action_type', 'text', (column) => column.notNull())
      .addColumn('tool_name', 'text', (column) => column.notNull())
      .addColumn('input_json', 'text')
      .addColumn('context_json', 'text', (column) => column.notNull())
      .addColumn('reasoning', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('verdicts')
      .addColumn('seq', dialect.sequenceType, (column) => dialect.autoIncrementPrimaryKey(column))
      .addColumn('id', 'text', (column) => column.notNull().unique())
      .addColumn('action_id', 'text', (column) => column.notNull().references('actions.id'))
      .addColumn('session_id', 'text', (column) => column.notNull().references('sessions.id'))
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('citations_json', 'text', (column) => column.notNull())
      .addColumn('source', 'text', (column) => column.notNull())
      .addColumn('decided_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('holds')
      .addColumn('seq', dialect.sequenceType, (column) => dialect.autoIncrementPrimaryKey(column))
      .addColumn('id', 'text', (column) => column.notNull().unique())
      .addColumn('schema_version', 'integer', (column) => column.notNull())
      // One hold per action: a second would make "first decision wins" ambiguous.
      .addColumn('action_id', 'text', (column) => column.notNull().unique().references('actions.id'))
      .addColumn('session_id', 'text', (column) => column.notNull().references('sessions.id'))
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('deadline', 'text', (column) => column.notNull())
      .addColumn('decided_at', 'text')
      .addColumn('decided_by', 'text')
      .addColumn('rationale', 'text')
      .execute();
    await db.schema
      .createIndex('sessions_by_tenant_agent')
      .on('sessions')
      .columns(['tenant_id', 'agent_id'])
      .execute();
    await db.schema.createIndex('evidence_by_session').on('evidence').column('session_id').execute();
    await db.schema.createIndex('actions_by_session').on('actions').column('session_id').execute();
    await db.schema.createIndex('verdicts_by_action').on('verdicts').column('action_id').execute();
    await db.schema.createIndex('holds_by_status').on('holds').column('status').execute();
    await db.schema.createIndex('holds_by_session').on('holds').column('session_id').execute();
  },
};
