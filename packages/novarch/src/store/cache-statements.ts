import type Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** How many distinct SQL texts keep their prepared statement (the store issues a few dozen). */
const MAX_CACHED_STATEMENTS = 256;

/**
 * The database as kysely's SQLite driver sees it, with each SQL text prepared once: the driver
 * prepares every query afresh (about a seventh of a governed read's CPU time). The store's
 * queries are a small fixed set of texts with `?` parameters, so the cache stays small; past
 * `MAX_CACHED_STATEMENTS` the oldest text is dropped. Statements are only run with `all`/`run`
 * (the store never streams), which reset them, so reusing one is safe.
 */
export function cacheStatements(database: Database.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      const cached = statements.get(sql);
      if (cached !== undefined) return cached;
      const statement = database.prepare(sql);
      if (statements.size >= MAX_CACHED_STATEMENTS) {
        const oldest = statements.keys().next().value;
        if (oldest !== undefined) statements.delete(oldest);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
