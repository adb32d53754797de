import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { NovarchDatabaseStore } from '../model/novarch-store.js';
import { KyselyNovarchStore } from './kysely-novarch-store.js';
import { migrateStore } from './migrate-store.js';
import { NovarchStoreError } from './novarch-store-error.js';
import { parseStoreUrl, StoreUrlError } from './parse-store-url.js';
import type { StoreDialect } from './store-dialect.js';
import type { StoreTables } from './store-tables.js';
import { type StoredValueOptions, storedValuePolicy } from './stored-value-policy.js';
import { surviveLostConnections } from './survive-lost-connections.js';

// Everything PostgreSQL-specific lives in this file: the pool, the session settings, the locks.
// The queries themselves (`kysely-novarch-store.ts`) are the SQLite store's.

/** The default of `PostgresStoreOptions.lockWaitMs`. */
export const DEFAULT_POSTGRES_LOCK_WAIT_MS = 2_000;
/** The default of `PostgresStoreOptions.maxConnections`. */
export const DEFAULT_POSTGRES_MAX_CONNECTIONS = 10;
/** The default of `PostgresStoreOptions.connectTimeoutMs`. */
export const DEFAULT_POSTGRES_CONNECT_TIMEOUT_MS = 10_000;

/**
 * The key of the store's write lock (`pg_advisory_xact_lock`): "NOVA" in ASCII. Migrations and
 * rule pushes take it; every other write only locks the rows it changes.
 */
const WRITE_LOCK_KEY = 0x4e4f5641;

/** PostgreSQL's error codes for "another transaction held a lock; nothing was changed". */
const LOCK_BUSY_CODES: ReadonlySet<string> = new Set([
  '55P03', // lock_not_available (lock_timeout)
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

/** How to open a PostgreSQL store. */
export interface PostgresStoreOptions extends StoredValueOptions {
  /**
   * How long one operation may wait for another connection's lock, in ms (default 2000; the
   * connection's `lock_timeout`). Past it the operation fails: the gate refuses the call.
   */
  lockWaitMs?: number;
  /** The most connections the store's pool opens at once (default 10). */
  maxConnections?: number;
  /** How long connecting to the server may take, in ms (default 10000). */
  connectTimeoutMs?: number;
  /**
   * The `novarch serve` process this store belongs to (its lease row, `server_instances.id`): set
   * as `novarch.instance_id` on each connection, it is stored as `judged_by` on every action
   * recorded, so a survivor can refuse the judgements of a server that died.
   */
  instanceId?: string;
}

/**
 * Durability, decided per write, as on SQLite. Connections run with `synchronous_commit = off`:
 * a commit is in the server's WAL buffers when it returns, so it survives a killed client (the
 * agent, `novarch serve`), and only a crash of the PostgreSQL server itself could lose the last
 * few hundred ms of evidence, actions and sessions. Decisions (verdicts, holds, hold decisions,
 * kills, releases) are committed with `synchronous_commit = on`: the WAL, and with it every
 * earlier commit, is flushed to disk before they return.
 */
export const postgresStoreDialect: StoreDialect = {
  sequenceType: 'bigint',
  autoIncrementPrimaryKey: (column) => column.primaryKey().generatedAlwaysAsIdentity(),
  rowLocks: true,
  // The JSON columns are text: cast to jsonb, whose text form of a scalar is what JSON.stringify writes.
  jsonText: (column, keys) => sql<string | null>`((${sql.ref(column)})::jsonb #> ${[...keys]}::text[])::text`,
  jsonNumber: (column, keys) =>
    sql<
      number | null
    >`(case when jsonb_typeof((${sql.ref(column)})::jsonb #> ${[...keys]}::text[]) = 'number' then ((${sql.ref(column)})::jsonb #>> ${[...keys]}::text[])::double precision end)`,
  transaction(db, work, options = {}) {
    return db.transaction().execute(async (transaction) => {
      if (options.durable) await sql`set local synchronous_commit = on`.execute(transaction);
      return work(transaction);
    });
  },
  withWriteLock(db, work, options = {}) {
    return db.transaction().execute(async (transaction) => {
      if (options.durable) await sql`set local synchronous_commit = on`.execute(transaction);
      // Held until the transaction ends; waits at most the connection's lock_timeout.
      await sql`select pg_advisory_xact_lock(${WRITE_LOCK_KEY})`.execute(transaction);
      return work(transaction);
    });
  },
  durably(db, work) {
    return postgresStoreDialect.transaction(db, work, { durable: true });
  },
  readSnapshot(db, work) {
    return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);
  },
  isLockBusy(error) {
    return error instanceof pg.DatabaseError && error.code !== undefined && LOCK_BUSY_CODES.has(error.code);
  },
};

function checkWholeNumber(name: string, value: number | undefined, minimum: number): void {
  if (value === undefined) return;
  if (!Number.isSafeInteger(value) || value < minimum) {
    throw new NovarchStoreError(`${name} must be a whole number ≥ ${minimum}; got ${String(value)}.`);
  }
}

/** A server's message, with the password taken out should it ever be quoted. */
function reasonOf(error: unknown, password: string): string {
  const reason = error instanceof Error ? error.message || error.name : String(error);
  return password === '' ? reason : reason.split(password).join('***');
}

/**
 * Opens a Novarch store on a PostgreSQL database (`postgres://USER:PASSWORD@HOST:PORT/DATABASE`,
 * or `postgresql://`). The schema is migrated on open under the store's advisory write lock, so
 * several servers opening one new database at once do not race. Many processes and machines may
 * share the database: a hold is decided once whichever connection decides it, and a kill stored
 * before a release wins (the release locks the session's row). Messages name the URL with its
 * password replaced by `***`.
 */
export async function openPostgresStore(
  url: string,
  options: PostgresStoreOptions = {},
): Promise<NovarchDatabaseStore> {
  let location: string;
  let password = '';
  try {
    const parsed = parseStoreUrl(url);
    if (parsed.kind !== 'postgres') {
      throw new StoreUrlError(
        `openPostgresStore needs a postgres:// URL; got sqlite:${parsed.path} (open it with openSqliteStore).`,
      );
    }
    location = parsed.redacted;
    password = decodeURIComponent(new URL(parsed.url).password);
  } catch (error) {
    if (error instanceof StoreUrlError) throw new NovarchStoreError(error.message, { cause: error });
    throw error;
  }
  const lockWaitMs = options.lockWaitMs ?? DEFAULT_POSTGRES_LOCK_WAIT_MS;
  if (!Number.isFinite(lockWaitMs) || lockWaitMs < 0) {
    throw new NovarchStoreError(`lockWaitMs must be a finite number of ms ≥ 0; got ${String(lockWaitMs)}.`);
  }
  checkWholeNumber('maxConnections', options.maxConnections, 1);
  checkWholeNumber('connectTimeoutMs', options.connectTimeoutMs, 1);
  const storedValue = storedValuePolicy(options);

  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? DEFAULT_POSTGRES_MAX_CONNECTIONS,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_POSTGRES_CONNECT_TIMEOUT_MS,
  });
  surviveLostConnections(pool);
  // lock_timeout = 0 means "wait for ever" in PostgreSQL: a wait of 0 ms is 1 ms.
  const lockTimeout = Math.max(1, Math.ceil(lockWaitMs));
  const db = new Kysely<StoreTables>({
    dialect: new PostgresDialect({
      pool,
      async onCreateConnection(connection) {
        await connection.executeQuery(CompiledQuery.raw('set synchronous_commit = off'));
        await connection.executeQuery(CompiledQuery.raw(`set lock_timeout = ${lockTimeout}`));
        if (options.instanceId !== undefined)
          await connection.executeQuery(
            CompiledQuery.raw("select set_config('novarch.instance_id', $1, false)", [options.instanceId]),
          );
      },
    }),
  });
  try {
    await migrateStore(db, postgresStoreDialect);
  } catch (error) {
    await db.destroy().catch(() => {});
    if (error instanceof NovarchStoreError) throw error;
    throw new NovarchStoreError(
      `Cannot open the Novarch store at ${location}: ${reasonOf(error, password)}. ` +
        'Check that the server runs, the database exists and the user may create tables in it.',
    );
  }
  return new KyselyNovarchStore(db, postgresStoreDialect, location, {
    storedValue,
    lockWaitMs,
    describeError: (error) => reasonOf(error, password),
  });
}
