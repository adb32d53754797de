import { type Kysely, sql } from 'kysely';

/** A 64-bit advisory lock key per collection (PostgreSQL's own hash of the name). */
const lockKey = (collection: string) => sql`hashtextextended(${`holodeck-retrieval:${collection}`}, 0)`;

/**
 * Runs `work` holding the PostgreSQL session advisory lock of `collection`, so ingests from any
 * number of processes and machines sharing the database never overlap; `onWait` is told once when
 * another session holds it. Needs no table or extension. A session lock lives on one connection,
 * so that connection is held for the whole of `work`, and the lock is released when `work` ends,
 * fails, or the connection drops.
 */
export async function withPostgresIngestLock<T>(
  db: Kysely<unknown>,
  location: string,
  collection: string,
  onWait: (message: string) => void,
  work: () => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    const tried = await sql<{
      locked: boolean;
    }>`SELECT pg_try_advisory_lock(${lockKey(collection)}) AS locked`.execute(connection);
    if (!tried.rows[0]?.locked) {
      onWait(
        `waiting for another holodeck process that is ingesting tool index ${collection} in ${location}`,
      );
      await sql`SELECT pg_advisory_lock(${lockKey(collection)})`.execute(connection);
    }
    try {
      return await work();
    } finally {
      await sql`SELECT pg_advisory_unlock(${lockKey(collection)})`.execute(connection);
    }
  });
}
