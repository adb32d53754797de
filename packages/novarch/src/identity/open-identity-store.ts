import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { surviveLostConnections } from '../store/survive-lost-connections.js';
import { IdentityStore } from './identity-store.js';
import type { IdentityTables } from './identity-tables.js';
import { migrateIdentity } from './migrate-identity.js';

/** Where the identity tables live: the same database as the server's store. */
export type IdentityDatabase = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/**
 * Opens the identity tables on their own connection to the store's database (a second SQLite
 * connection to the same WAL file, or a small pg pool) and migrates them. The store itself is
 * opened apart (`openSqliteStore` / `openPostgresStore`): it does not know these tables.
 */
export async function openIdentityStore(database: IdentityDatabase): Promise<IdentityStore> {
  const db =
    database.kind === 'sqlite'
      ? new Kysely<IdentityTables>({ dialect: new SqliteDialect({ database: openSqlite(database.path) }) })
      : new Kysely<IdentityTables>({
          dialect: new PostgresDialect({
            // Credentials are looked up on every request: a connection PostgreSQL ended (restart,
            // failover) fails that lookup (503), never the process.
            pool: surviveLostConnections(
              new pg.Pool({ connectionString: database.url, max: 4, connectionTimeoutMillis: 10_000 }),
            ),
          }),
        });
  try {
    await migrateIdentity(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return new IdentityStore(db, () => db.destroy());
}

function openSqlite(file: string): Database.Database {
  const connection = new Database(file);
  // Credentials are looked up on every request: wait a little for another writer rather than fail.
  connection.pragma('busy_timeout = 2000');
  connection.pragma('journal_mode = WAL');
  return connection;
}
