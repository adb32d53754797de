import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { NovarchDatabaseStore } from '../model/novarch-store.js';
import { errorMessage } from '../support.js';
import { startBackgroundCheckpoints } from './background-checkpoints.js';
import { cacheStatements } from './cache-statements.js';
import { KyselyNovarchStore } from './kysely-novarch-store.js';
import { migrateStore } from './migrate-store.js';
import { NovarchStoreError } from './novarch-store-error.js';
import type { StoreDialect } from './store-dialect.js';
import type { StoreTables } from './store-tables.js';
import { type StoredValueOptions, storedValuePolicy } from './stored-value-policy.js';

// Everything SQLite-specific lives in this file: the pragmas, the kysely dialect and the write
// lock. The queries themselves (`kysely-novarch-store.ts`) are dialect-neutral.

/**
 * Waiting for another process's write lock. better-sqlite3 is synchronous: SQLite's own busy wait
 * blocks the whole event loop (every hook, every timer of the agent process). So SQLite waits at
 * most `BUSY_SLICE_MS` per attempt, and the store retries the operation after short sleeps that
 * leave the event loop free, until `DEFAULT_LOCK_WAIT_MS` in all; then the operation fails and the
 * gate refuses (fail-closed). Writes here are single short statements, so waiting is rare and brief.
 * Opening (migrations) still waits up to `OPEN_BUSY_TIMEOUT_MS`: a concurrent open migrates first.
 */
const BUSY_SLICE_MS = 20;
export const DEFAULT_LOCK_WAIT_MS = 2_000;
const OPEN_BUSY_TIMEOUT_MS = 10_000;

/** How to open the embedded store. */
export interface SqliteStoreOptions extends StoredValueOptions {
  /**
   * How long one operation may wait for another process's write lock, in ms (default 2000),
   * without blocking the event loop. Past it the operation fails: the gate refuses the call.
   */
  lockWaitMs?: number;
  /**
   * Who checkpoints the WAL into the database file: `background` (default), a worker thread with
   * its own connection, every second, so no tool call of the agent pays for one; or `automatic`,
   * SQLite's own (the commit that takes the WAL past 1000 pages does it: ~7-12 ms on a VM disk).
   * Short-lived processes (the operator CLI) use `automatic`: they write too little to need one.
   */
  checkpoints?: 'background' | 'automatic';
}

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

/**
 * The SQLite dialect. `afterNormalCommit` runs after each write committed without an fsync (an
 * evidence row, an action, a session): the background worker then flushes the WAL beside the event
 * loop, so the next durable commit (a verdict) fsyncs its own pages, not every read's before it.
 */
export function createSqliteStoreDialect(afterNormalCommit: () => void = () => {}): StoreDialect {
  const dialect: StoreDialect = {
    sequenceType: 'integer',
    autoIncrementPrimaryKey: (column) => column.primaryKey().autoIncrement(),
    rowLocks: false,
    // `->` gives minified JSON text (SQLite 3.38+); `keys` are identifiers, so the path is safe.
    jsonText: (column, keys) => sql<string | null>`(${sql.ref(column)} -> ${`$.${keys.join('.')}`})`,
    jsonNumber: (column, keys) => {
      const path = `$.${keys.join('.')}`;
      return sql<
        number | null
      >`(case when json_type(${sql.ref(column)}, ${path}) in ('integer', 'real') then json_extract(${sql.ref(column)}, ${path}) end)`;
    },
    transaction(db, work, options = {}) {
      // SQLite has one lock for writers: every write transaction takes it.
      return dialect.withWriteLock(db, work, options);
    },
    withWriteLock(db, work, options = {}) {
      return db.connection().execute(async (connection) => {
        if (options.durable)
          await sql.raw(`pragma synchronous = ${SYNCHRONOUS_FOR_DECISIONS}`).execute(connection);
        try {
          // A plain (deferred) BEGIN would let two processes both read "not migrated" and then
          // collide on the upgrade to a write lock; IMMEDIATE makes the second one wait its turn.
          await sql`begin immediate`.execute(connection);
          try {
            const result = await work(connection);
            await sql`commit`.execute(connection);
            if (!options.durable) afterNormalCommit();
            return result;
          } catch (error) {
            await sql`rollback`.execute(connection);
            throw error;
          }
        } finally {
          if (options.durable)
            await sql.raw(`pragma synchronous = ${SYNCHRONOUS_DEFAULT}`).execute(connection);
        }
      });
    },
    isLockBusy(error) {
      return (
        error instanceof Database.SqliteError &&
        (error.code.startsWith('SQLITE_BUSY') || error.code.startsWith('SQLITE_LOCKED'))
      );
    },
    readSnapshot(db, work) {
      return db.connection().execute(async (connection) => {
        await sql`begin`.execute(connection);
        try {
          return await work(connection);
        } finally {
          await sql`rollback`.execute(connection);
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
  return dialect;
}

/** The SQLite dialect without a flush hook (migrations, and tests that explain its queries). */
export const sqliteStoreDialect: StoreDialect = createSqliteStoreDialect();

/**
 * Creates the store's folder (0700) and file (0600) when absent: the store holds every tool
 * input and output of the agents it governs. SQLite gives its `-wal` and `-shm` files the main
 * file's permissions. An existing file or folder keeps its permissions (a deployment may share a
 * store between accounts on purpose).
 */
function createPrivately(file: string): void {
  const folder = path.dirname(path.resolve(file));
  const firstCreated = mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (firstCreated !== undefined) {
    // The mode is masked by the umask; set it exactly on every folder this call created.
    for (let current = folder; ; current = path.dirname(current)) {
      chmodSync(current, 0o700);
      if (current === path.resolve(firstCreated) || current === path.dirname(current)) break;
    }
  }
  if (!existsSync(file)) {
    try {
      closeSync(openSync(file, 'wx', 0o600));
      chmodSync(file, 0o600);
    } catch (error) {
      // Another process created it first: use theirs.
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
    }
  }
}

/**
 * Throws once `file` is no longer the file that was opened: deleted, or replaced by another one.
 * SQLite would go on writing into the unlinked file (lost with the last close) or into a file no
 * operator sees, so every operation fails instead, and the gate refuses (fail-closed).
 */
function locationGuard(file: string): () => void {
  const opened = statSync(file, { bigint: true });
  return () => {
    let now: ReturnType<typeof statSync>;
    try {
      now = statSync(file, { bigint: true });
    } catch {
      throw new NovarchStoreError(
        `The Novarch store file ${file} was deleted while in use: nothing more is stored, and every governed call is refused. ` +
          'Restore the file (or point Novarch at a new store) and restart the agent.',
      );
    }
    if (now.ino !== opened.ino || now.dev !== opened.dev) {
      throw new NovarchStoreError(
        `The Novarch store file ${file} was replaced by another file while in use: nothing more is stored, and every governed call is refused. ` +
          'Restart the agent to use the new file.',
      );
    }
  };
}

function openDatabase(file: string): Database.Database {
  createPrivately(file);
  const database = new Database(file, { timeout: OPEN_BUSY_TIMEOUT_MS });
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
export function openSqliteStore(
  file: string,
  options: SqliteStoreOptions = {},
): Promise<NovarchDatabaseStore> {
  const opened = openingInThisProcess.then(() => openNow(file, options));
  openingInThisProcess = opened.catch(() => undefined);
  return opened;
}

async function openNow(file: string, options: SqliteStoreOptions): Promise<NovarchDatabaseStore> {
  const lockWaitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
  if (
    options.checkpoints !== undefined &&
    options.checkpoints !== 'background' &&
    options.checkpoints !== 'automatic'
  ) {
    throw new NovarchStoreError(
      `checkpoints must be "background" or "automatic"; got ${JSON.stringify(options.checkpoints)}.`,
    );
  }
  if (!Number.isFinite(lockWaitMs) || lockWaitMs < 0) {
    throw new NovarchStoreError(`lockWaitMs must be a finite number of ms ≥ 0; got ${String(lockWaitMs)}.`);
  }
  const storedValue = storedValuePolicy(options);
  let database: Database.Database;
  try {
    database = openDatabase(file);
  } catch (error) {
    if (error instanceof NovarchStoreError) throw error;
    const reason = errorMessage(error);
    throw new NovarchStoreError(`Cannot open the Novarch store at ${file}: ${reason}`, { cause: error });
  }
  const db = new Kysely<StoreTables>({ dialect: new SqliteDialect({ database: cacheStatements(database) }) });
  try {
    await migrateStore(db, sqliteStoreDialect);
  } catch (error) {
    await db.destroy();
    if (error instanceof NovarchStoreError) throw error;
    const reason = errorMessage(error);
    throw new NovarchStoreError(`Cannot prepare the Novarch store at ${file}: ${reason}`, { cause: error });
  }
  // Migrated: from now on SQLite waits only a slice per attempt (see BUSY_SLICE_MS).
  database.pragma(`busy_timeout = ${Math.min(BUSY_SLICE_MS, lockWaitMs)}`);
  const checkpoints =
    options.checkpoints === 'automatic' ? undefined : startBackgroundCheckpoints(database, file);
  const dialect = createSqliteStoreDialect(
    checkpoints === undefined ? undefined : () => checkpoints.flushSoon(),
  );
  return new KyselyNovarchStore(db, dialect, file, {
    verifyLocation: locationGuard(file),
    storedValue,
    lockWaitMs,
    ...(checkpoints === undefined ? {} : { beforeClose: () => checkpoints.stop() }),
  });
}
