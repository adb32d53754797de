import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { NovarchStore } from '../model/novarch-store.js';
import { KyselyNovarchStore } from './kysely-novarch-store.js';
import { migrateStore } from './migrate-store.js';
import { NovarchStoreError } from './novarch-store-error.js';
import type { StoreDialect } from './store-dialect.js';
import type { StoreTables } from './store-tables.js';

// Everything SQLite-specific lives in this file: the pragmas, the kysely dialect and the write
// lock. The queries themselves (`kysely-novarch-store.ts`) are dialect-neutral.

/**
 * How long a statement waits for another process's write lock before failing. Writes here are
 * single short statements, so waiting is rare and brief; a failure after 10 s becomes a refusal.
 */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * Durability, decided per write. In WAL mode every commit is in the WAL file before it returns,
 * so with `synchronous = NORMAL` nothing committed is lost when a process is killed; only a power
 * loss or OS crash can roll back commits not yet fsynced. Decisions (verdicts, holds, hold
 * decisions, kills) are therefore committed with `synchronous = FULL`, which fsyncs the WAL, and
 * with it every earlier write, before returning. Evidence, actions and sessions stay on NORMAL:
 * an fsync costs ~3-5 ms (p99 10-35 ms measured on these VMs) against ~0.02 ms without, and reads
 * are on the agent's path (target: gate overhead under 5 ms at p99).
 */
const SYNCHRONOUS_DEFAULT = 'NORMAL';
const SYNCHRONOUS_FOR_DECISIONS = 'FULL';

const sqliteStoreDialect: StoreDialect = {
  autoIncrementPrimaryKey: (column) => column.primaryKey().autoIncrement(),
  async withWriteLock(db, work) {
    await db.connection().execute(async (connection) => {
      // A plain (deferred) BEGIN would let two processes both read "not migrated" and then
      // collide on the upgrade to a write lock; IMMEDIATE makes the second one wait its turn.
      await sql`begin immediate`.execute(connection);
      try {
        await work(connection);
        await sql`commit`.execute(connection);
      } catch (error) {
        await sql`rollback`.execute(connection);
        throw error;
      }
    });
  },
  durably(db, work) {
    // One reserved connection, so no other write of this store slips in while FULL is on.
    return db.connection().execute(async (connection) => {
      await sql.raw(`pragma synchronous = ${SYNCHRONOUS_FOR_DECISIONS}`).execute(connection);
      try {
        return await work(connection);
      } finally {
        await sql.raw(`pragma synchronous = ${SYNCHRONOUS_DEFAULT}`).execute(connection);
      }
    });
  },
};

function openDatabase(file: string): Database.Database {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    // Readers never block the writer and the writer never blocks readers: several processes
    // (agents, the operator's CLI) share the file.
    const mode = database.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') {
      throw new NovarchStoreError(
        `SQLite would not use WAL mode for ${file} (got ${String(mode)}). Put the store on a local ` +
          'file system: WAL does not work on network file systems.',
      );
    }
    database.pragma(`synchronous = ${SYNCHRONOUS_DEFAULT}`);
    database.pragma('foreign_keys = ON');
    return database;
  } catch (error) {
    database.close();
    throw error;
  }
}

/**
 * Opens in this process, one after another. better-sqlite3 is synchronous: were two connections of
 * one process to migrate at once, the second would wait for the write lock inside SQLite's busy
 * handler, blocking the event loop the first needs to commit. Other processes are not affected.
 */
let openingInThisProcess: Promise<unknown> = Promise.resolve();

/**
 * Opens (creating when absent) the embedded Novarch store: one SQLite file in WAL mode that
 * several processes on one machine may open at once. The schema is migrated on open, under the
 * database's write lock, so concurrent opens of a new file do not race.
 */
export function openSqliteStore(file: string): Promise<NovarchStore> {
  const opened = openingInThisProcess.then(() => openNow(file));
  openingInThisProcess = opened.catch(() => undefined);
  return opened;
}

async function openNow(file: string): Promise<NovarchStore> {
  let database: Database.Database;
  try {
    database = openDatabase(file);
  } catch (error) {
    if (error instanceof NovarchStoreError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new NovarchStoreError(`Cannot open the Novarch store at ${file}: ${reason}`, { cause: error });
  }
  const db = new Kysely<StoreTables>({ dialect: new SqliteDialect({ database }) });
  try {
    await migrateStore(db, sqliteStoreDialect);
  } catch (error) {
    await db.destroy();
    if (error instanceof NovarchStoreError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new NovarchStoreError(`Cannot prepare the Novarch store at ${file}: ${reason}`, { cause: error });
  }
  return new KyselyNovarchStore(db, sqliteStoreDialect, file);
}
