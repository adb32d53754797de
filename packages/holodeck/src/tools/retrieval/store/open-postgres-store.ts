import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { describePostgresTarget } from './describe-postgres-target.js';
import { PostgresRetrievalStore } from './postgres-retrieval-store.js';

/** Connecting failed (unreachable, refused credentials, no pgvector): the message says which. */
export class PostgresConnectError extends Error {
  override name = 'PostgresConnectError';
}

/** `text` without the connection string or its password, however the driver quoted them. */
function scrubSecrets(text: string, connectionString: string): string {
  let password = '';
  try {
    password = new URL(connectionString).password;
  } catch {}
  const secrets = [connectionString, password, safeDecode(password)].filter((secret) => secret.length > 0);
  return secrets.reduce((result, secret) => result.split(secret).join('***'), text);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Connects to the PostgreSQL index of `connectionString` (pg pool of 4) and creates its tables. */
export async function openPostgresStore(connectionString: string): Promise<PostgresRetrievalStore> {
  const target = describePostgresTarget(connectionString);
  const display = target.ok ? target.display : 'the configured server';
  const pool = new pg.Pool({ connectionString, max: 4, connectionTimeoutMillis: 10_000 });
  // An idle client's error (server restart) must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  try {
    return await PostgresRetrievalStore.open(db, display);
  } catch (error) {
    await db.destroy().catch(() => {});
    const reason =
      error instanceof Error
        ? error.message || (error as NodeJS.ErrnoException).code || error.name
        : String(error);
    const secretFree = scrubSecrets(reason, connectionString);
    const hint = /extension "vector"|vector\.control/.test(reason)
      ? ' (install the pgvector extension on the server)'
      : '';
    throw new PostgresConnectError(`cannot use the PostgreSQL index at ${display}: ${secretFree}${hint}`);
  }
}
