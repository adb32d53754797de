import { type Kysely, sql } from 'kysely';
import { backfillAuditChain } from './backfill-audit-chain.js';
import { backfillHistoryFields } from './backfill-history-fields.js';
import { CLUSTER_MIGRATION } from './cluster-migration.js';
import { HISTORY_COVERING_MIGRATION } from './history-covering-migration.js';
import { backfillHoldApprovals } from './hold-approval-links.js';
import { INITIAL_SCHEMA_MIGRATION } from './initial-schema-migration.js';
import { SLACK_MESSAGES_MIGRATION } from './slack-messages-migration.js';
import type { StoreDialect } from './store-dialect.js';
import { VERDICT_UNIQUENESS_MIGRATION } from './verdict-uniqueness-migration.js';

/** One schema change. Versions only grow; a shipped migration is never edited. */
export interface StoreMigration {
  version: number;
  name: string;
  // `Kysely<any>`: a migration describes tables that, at its version, may differ from `StoreTables`.
  // biome-ignore lint/suspicious/noExplicitAny: kysely's documented type for migrations
  up(db: Kysely<any>, dialect: StoreDialect): Promise<void>;
}

/** Every migration, oldest first. */
export const STORE_MIGRATIONS: readonly StoreMigration[] = [
  INITIAL_SCHEMA_MIGRATION,
  {
    version: 2,
    name: 'holds: the last check-in of the waiting process',
    async up(db) {
      // One column per statement: SQLite's ALTER TABLE adds one at a time. Existing rows get NULL
      // (no check-in recorded), which reads as "last seen when the hold was created".
      await db.schema.alterTable('holds').addColumn('waiter_seen_at', 'text').execute();
      await db.schema.alterTable('holds').addColumn('waiter_pid', 'integer').execute();
      await db.schema.alterTable('holds').addColumn('waiter_host', 'text').execute();
    },
  },
  {
    version: 3,
    name: 'who decided: kill source and citations, OS users, released writes',
    async up(db) {
      // All nullable: rows stored before say nothing, and are read as such (never guessed at).
      await db.schema.alterTable('sessions').addColumn('kill_source', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('kill_action_id', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('kill_citations_json', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('killed_by_os_user', 'text').execute();
      await db.schema.alterTable('actions').addColumn('released_at', 'text').execute();
      await db.schema.alterTable('verdicts').addColumn('os_user', 'text').execute();
      await db.schema.alterTable('holds').addColumn('decided_by_os_user', 'text').execute();
    },
  },
  {
    version: 4,
    name: 'rule sets pushed per team, versioned',
    async up(db, dialect) {
      await db.schema
        .createTable('rule_sets')
        .addColumn('seq', dialect.sequenceType, (column) => dialect.autoIncrementPrimaryKey(column))
        .addColumn('team', 'text', (column) => column.notNull())
        .addColumn('version', 'integer', (column) => column.notNull())
        .addColumn('content', 'text', (column) => column.notNull())
        .addColumn('content_hash', 'text', (column) => column.notNull())
        .addColumn('pushed_at', 'text', (column) => column.notNull())
        .addColumn('pushed_by', 'text', (column) => column.notNull())
        .addColumn('pushed_by_os_user', 'text')
        // One row per version: two racing pushes cannot both become version N.
        .addUniqueConstraint('rule_sets_team_version', ['team', 'version'])
        .execute();
    },
  },
  {
    version: 5,
    name: 'webhook deliveries and their attempts',
    async up(db, dialect) {
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('seq', dialect.sequenceType, (column) => dialect.autoIncrementPrimaryKey(column))
        .addColumn('id', 'text', (column) => column.notNull().unique())
        .addColumn('tenant_id', 'text', (column) => column.notNull())
        .addColumn('event', 'text', (column) => column.notNull())
        .addColumn('hold_id', 'text')
        .addColumn('url', 'text', (column) => column.notNull())
        .addColumn('payload_json', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('attempts', 'integer', (column) => column.notNull())
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('last_attempt_at', 'text')
        .addColumn('next_attempt_at', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('delivered_at', 'text')
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_by_tenant')
        .on('webhook_deliveries')
        .column('tenant_id')
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_by_status')
        .on('webhook_deliveries')
        .column('status')
        .execute();
    },
  },
  {
    version: 6,
    name: 'sessions bound to the agent key that opened them, with their secret',
    async up(db) {
      // Apart from `sessions`: a session opened in process has no row, and rows of sessions
      // opened before this migration are absent (they stay reachable by any key of their tenant).
      await db.schema
        .createTable('session_bindings')
        .addColumn('session_id', 'text', (column) => column.primaryKey().references('sessions.id'))
        .addColumn('agent_key_id', 'text', (column) => column.notNull())
        .addColumn('secret_hash', 'text', (column) => column.notNull())
        .execute();
    },
  },
  {
    version: 7,
    name: 'evidence: the store sequence of the actions recorded before it',
    async up(db) {
      // `action_seq`: the highest `actions.seq` of the session when the evidence was stored (0 when
      // none). Evidence is older than action A, in the store's own order, when `action_seq < A.seq`:
      // no agent's clock decides what a replay counts as seen. Rows stored before this migration
      // are filled in from the timestamps they were ordered by until now (the only order known).
      await db.schema.alterTable('evidence').addColumn('action_seq', 'bigint').execute();
      await sql`
        update evidence set action_seq = (
          select coalesce(max(actions.seq), 0) from actions
          where actions.session_id = evidence.session_id and actions.created_at < evidence.finished_at
        )`.execute(db);
    },
  },
  {
    version: 9,
    name: 'holds: approval policy, approvals so far, edited input',
    async up(db) {
      // Nullable: holds stored before need one approval by any operator, and were never edited.
      await db.schema.alterTable('holds').addColumn('policy_json', 'text').execute();
      await db.schema.alterTable('holds').addColumn('approvals_json', 'text').execute();
      await db.schema.alterTable('holds').addColumn('edited_input_json', 'text').execute();
      await db.schema.alterTable('holds').addColumn('edited_by', 'text').execute();
    },
  },
  {
    version: 10,
    name: 'actions: indexes for history conditions',
    async up(db) {
      // `history.count/sum/exists` read the actions of one type in a time window before the judged
      // one: in its session (by session and type, in store order), or in its agent's or tenant's
      // sessions (by type and time, joined to the sessions of the scope).
      await db.schema
        .createIndex('actions_by_session_type')
        .on('actions')
        .columns(['session_id', 'action_type', 'seq'])
        .execute();
      await db.schema
        .createIndex('actions_by_type_time')
        .on('actions')
        .columns(['action_type', 'created_at'])
        .execute();
    },
  },
  // No migration 8 was ever released; the runner applies whichever versions are missing, in order.
  {
    version: 11,
    name: 'audit chain: a hash-chained link per decision, per tenant and per team',
    async up(db, dialect) {
      await db.schema
        .createTable('audit_links')
        .addColumn('seq', dialect.sequenceType, (column) => dialect.autoIncrementPrimaryKey(column))
        .addColumn('chain', 'text', (column) => column.notNull())
        .addColumn('position', 'integer', (column) => column.notNull())
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('record_id', 'text', (column) => column.notNull())
        .addColumn('digest', 'text', (column) => column.notNull())
        .addColumn('prev_hash', 'text', (column) => column.notNull())
        .addColumn('hash', 'text', (column) => column.notNull())
        .addColumn('recorded_at', 'text', (column) => column.notNull())
        // Two appenders can never both write position N, nor chain one record twice.
        .addUniqueConstraint('audit_links_chain_position', ['chain', 'position'])
        .addUniqueConstraint('audit_links_chain_record', ['chain', 'kind', 'record_id'])
        .execute();
      await db.schema
        .createTable('audit_heads')
        .addColumn('chain', 'text', (column) => column.primaryKey())
        .addColumn('position', 'integer', (column) => column.notNull())
        .addColumn('hash', 'text', (column) => column.notNull())
        .execute();
      await backfillAuditChain(db);
    },
  },
  {
    version: 12,
    name: 'history fields: the filterable fields of actions and evidence, indexed',
    async up(db, dialect) {
      // See `history-field-rows.ts` for which fields; `action-history-queries.ts` for the reads.
      await db.schema
        .createTable('history_fields')
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('record_seq', dialect.sequenceType, (column) => column.notNull())
        .addColumn('position', dialect.sequenceType, (column) => column.notNull())
        .addColumn('tenant_id', 'text', (column) => column.notNull())
        .addColumn('agent_id', 'text', (column) => column.notNull())
        .addColumn('session_id', 'text', (column) => column.notNull())
        .addColumn('type', 'text', (column) => column.notNull())
        .addColumn('path', 'text', (column) => column.notNull())
        .addColumn('value', 'text', (column) => column.notNull())
        .addColumn('number', 'double precision')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .execute();
      // Tenant and agent scope (the agent is checked on the rows found), then session scope: an
      // equality on every column but the last, a range on it.
      await db.schema
        .createIndex('history_fields_by_tenant')
        .on('history_fields')
        .columns(['tenant_id', 'kind', 'type', 'path', 'value', 'created_at'])
        .execute();
      await db.schema
        .createIndex('history_fields_by_session')
        .on('history_fields')
        .columns(['session_id', 'kind', 'type', 'path', 'value', 'position'])
        .execute();
      await backfillHistoryFields(db);
    },
  },
  CLUSTER_MIGRATION,
  {
    version: 14,
    name: 'audit chain: a link per approval of a hold (quorum approvals, edited inputs)',
    async up(db) {
      await backfillHoldApprovals(db);
    },
  },
  VERDICT_UNIQUENESS_MIGRATION,
  SLACK_MESSAGES_MIGRATION,
  HISTORY_COVERING_MIGRATION,
];
