import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { ClusterStore } from './cluster-store.js';
import type { ClusterTables } from './cluster-tables.js';
import { surviveLostConnections } from './survive-lost-connections.js';

/**
 * Opens the tables servers share (`ClusterStore`) on a small pool of their own to the store's
 * PostgreSQL database, already migrated by `openPostgresStore`. A connection PostgreSQL ends
 * fails that query, never the process.
 */
export function openClusterStore(url: string): ClusterStore {
  const pool = surviveLostConnections(
    new pg.Pool({ connectionString: url, max: 3, connectionTimeoutMillis: 10_000 }),
  );
  const db = new Kysely<ClusterTables>({ dialect: new PostgresDialect({ pool }) });
  return new ClusterStore(db, () => db.destroy());
}
