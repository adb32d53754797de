import type pg from 'pg';

/**
 * Keeps a pg pool's lost connections from ending the process. PostgreSQL ends connections on a
 * restart, a failover or `pg_terminate_backend`: the pool then emits `error` for an idle client,
 * and a client checked out between two queries of a transaction emits `error` itself. Either,
 * unhandled, ends the process. Handled, the query on that connection fails (the store answers
 * 503, the gate refuses: fail-closed) and the pool opens a new connection for the next one, so
 * the server recovers once the database is back.
 */
export function surviveLostConnections(pool: pg.Pool): pg.Pool {
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}
