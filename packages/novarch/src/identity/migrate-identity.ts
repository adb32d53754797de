import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { NovarchError } from '../errors.js';
import { errorMessage } from '../support.js';
import type { IdentityTables } from './identity-tables.js';

// The identity tables have their own migrations, recorded in their own kysely tables, so they
// never interleave with the store's `schema_migrations` list. Plain `text` columns work on SQLite
// and PostgreSQL alike.
/** The identity tables' migrations, by name, applied in name order (exported for the upgrade tests). */
export const IDENTITY_MIGRATIONS: Readonly<Record<string, Migration>> = {
  '001_agent_keys_and_operator_tokens': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('novarch_agent_keys')
        .ifNotExists()
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('tenant_id', 'text', (column) => column.notNull())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('secret_hash', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema
        .createTable('novarch_operator_tokens')
        .ifNotExists()
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('role', 'text', (column) => column.notNull())
        .addColumn('grants', 'text', (column) => column.notNull())
        .addColumn('secret_hash', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
    },
  },
  // Console sessions in the database, not a server's memory: they survive a restart and work on
  // every server process of the store. Keyed by the SHA-256 of the cookie's session id.
  '002_console_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('novarch_console_sessions')
        .ifNotExists()
        .addColumn('id_hash', 'text', (column) => column.primaryKey())
        .addColumn('operator_id', 'text', (column) => column.notNull())
        .addColumn('operator', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('last_seen_at', 'text', (column) => column.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema
        .createIndex('novarch_console_sessions_operator')
        .ifNotExists()
        .on('novarch_console_sessions')
        .column('operator_id')
        .execute();
    },
  },
  // Keys bound to one agent and, optionally, some teams. Keys created before stay unbound (any
  // agent and team of their tenant), and say so when listed.
  '003_agent_key_bindings': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('novarch_agent_keys').addColumn('agent_id', 'text').execute();
      await db.schema.alterTable('novarch_agent_keys').addColumn('team_ids', 'text').execute();
    },
  },
  // Separation of duties: the approver groups an operator belongs to, and the agent keys whose
  // sessions it may not decide for. Tokens created before have neither (no group, no exclusion).
  '004_operator_duties': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('novarch_operator_tokens').addColumn('groups', 'text').execute();
      await db.schema.alterTable('novarch_operator_tokens').addColumn('not_for_keys', 'text').execute();
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => ({ ...IDENTITY_MIGRATIONS }) };

/** Brings the identity tables to the latest version (idempotent; concurrent openers take turns). */
export async function migrateIdentity(db: Kysely<IdentityTables>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: 'novarch_identity_migrations',
    migrationLockTableName: 'novarch_identity_migrations_lock',
  });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const reason = errorMessage(error);
    throw new NovarchError(`could not migrate the identity tables of the store: ${reason}`);
  }
}
