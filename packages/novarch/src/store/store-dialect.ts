import type { ColumnDefinitionBuilder, Kysely, RawBuilder } from 'kysely';
import type { StoreTables } from './store-tables.js';

/**
 * What a database brings beyond kysely's neutral queries: the few things SQLite and PostgreSQL do
 * differently. The SQLite one lives in `open-sqlite-store.ts`.
 */
export interface StoreDialect {
  /**
   * The column type of the `seq` columns that order rows by insertion: `integer` on SQLite (its
   * 64-bit rowid alias), `bigint` on PostgreSQL (a server store may outgrow 2^31 rows).
   */
  readonly sequenceType: 'integer' | 'bigint';
  /** Makes `column` an auto-increasing integer primary key (SQLite `autoincrement`, PostgreSQL identity). */
  autoIncrementPrimaryKey(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /**
   * Whether `select ... for update` locks rows. PostgreSQL: yes, and the store locks a session's
   * row where a release must not interleave with a kill. SQLite has no row locks and needs none:
   * its transactions hold the database's single write lock.
   */
  readonly rowLocks: boolean;
  /**
   * Runs `work` on one connection holding the database's write lock for the whole time, and
   * commits it as one transaction. Two processes opening the same store at once thus migrate one
   * after the other; the second finds the work done. (SQLite: `BEGIN IMMEDIATE`.) With `durable`,
   * the commit is also durable as `durably` makes it.
   */
  withWriteLock<T>(
    db: Kysely<StoreTables>,
    work: (locked: Kysely<StoreTables>) => Promise<T>,
    options?: { durable?: boolean },
  ): Promise<T>;
  /**
   * Runs `work` as one transaction (committed when it resolves, rolled back when it throws),
   * without the database-wide write lock where the database has finer locks (PostgreSQL: a plain
   * `read committed` transaction; rows are locked as they are written or selected for update).
   * SQLite: the same as `withWriteLock`. With `durable`, as `durably`.
   */
  transaction<T>(
    db: Kysely<StoreTables>,
    work: (transaction: Kysely<StoreTables>) => Promise<T>,
    options?: { durable?: boolean },
  ): Promise<T>;
  /**
   * Runs the write of a decision (verdict, hold, hold decision, kill) so that once it resolves it
   * survives a power loss, not only a killed process; it also makes every earlier write durable.
   * Other writes (evidence, actions, sessions) only need to survive a killed process.
   */
  durably<T>(db: Kysely<StoreTables>, work: (db: Kysely<StoreTables>) => Promise<T>): Promise<T>;
  /**
   * Runs `work` on one connection in a read-only snapshot: every read sees the database as of one
   * moment, however many statements (`audit verify` reads a chain, its head and its records, which
   * writers append to meanwhile). SQLite: a deferred transaction (WAL readers keep their snapshot);
   * PostgreSQL: `repeatable read, read only`.
   */
  readSnapshot<T>(db: Kysely<StoreTables>, work: (snapshot: Kysely<StoreTables>) => Promise<T>): Promise<T>;
  /**
   * Whether `error` means another connection held a lock: the operation changed nothing and may
   * be run again (the store retries it, without blocking the event loop, within its lock wait).
   */
  isLockBusy(error: unknown): boolean;
  /**
   * The JSON text of the value at `keys` inside the JSON text column `column` (`a.context_json`),
   * written as `JSON.stringify` writes it (`"C-1"`, `500`, `true`); NULL when absent. `keys` are
   * identifiers (checked by the caller). History filters compare it with `JSON.stringify(value)`.
   */
  jsonText(column: string, keys: readonly string[]): RawBuilder<string | null>;
  /** The number at `keys` inside the JSON text column `column`; NULL when absent or not a number. */
  jsonNumber(column: string, keys: readonly string[]): RawBuilder<number | null>;
}
