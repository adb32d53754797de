import type { Kysely } from 'kysely';
import { NovarchStoreError } from './novarch-store-error.js';
import type { StoreDialect } from './store-dialect.js';
import { STORE_MIGRATIONS } from './store-migrations.js';
import type { StoreTables } from './store-tables.js';

/**
 * Brings the store's schema to the latest version, idempotently: applied migrations are recorded
 * in `schema_migrations` in the same transaction as their changes. A store written by a newer
 * Novarch (a version this code does not know) is refused rather than used.
 */
export async function migrateStore(db: Kysely<StoreTables>, dialect: StoreDialect): Promise<void> {
  // A store already at this version is not locked at all: a read never waits for writers, so many
  // processes opening one busy store do not queue for its write lock (they failed to open before).
  if (await isCurrent(db)) return;
  await dialect.withWriteLock(db, async (locked) => {
    await locked.schema
      .createTable('schema_migrations')
      .ifNotExists()
      .addColumn('version', 'integer', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('applied_at', 'text', (column) => column.notNull())
      .execute();
    const applied = await locked.selectFrom('schema_migrations').select(['version']).execute();
    const appliedVersions = new Set(applied.map((row) => row.version));
    const latest = STORE_MIGRATIONS.at(-1)?.version ?? 0;
    const newest = Math.max(0, ...appliedVersions);
    if (newest > latest) {
      throw new NovarchStoreError(
        `The store was written by a newer Novarch (schema version ${newest}; this one knows up to ${latest}). ` +
          'Upgrade Novarch, or point it at another store file.',
      );
    }
    for (const migration of STORE_MIGRATIONS) {
      if (appliedVersions.has(migration.version)) continue;
      await migration.up(locked, dialect);
      await locked
        .insertInto('schema_migrations')
        .values({ version: migration.version, name: migration.name, applied_at: new Date().toISOString() })
        .execute();
    }
  });
}

/**
 * Whether every migration this code knows is applied and none newer (read without any lock).
 * False when `schema_migrations` does not exist yet, or on any error: the locked path decides then.
 */
async function isCurrent(db: Kysely<StoreTables>): Promise<boolean> {
  let versions: Set<number>;
  try {
    const rows = await db.selectFrom('schema_migrations').select(['version']).execute();
    versions = new Set(rows.map((row) => Number(row.version)));
  } catch {
    return false;
  }
  const latest = STORE_MIGRATIONS.at(-1)?.version ?? 0;
  if (Math.max(0, ...versions) > latest) return false;
  return STORE_MIGRATIONS.every((migration) => versions.has(migration.version));
}
