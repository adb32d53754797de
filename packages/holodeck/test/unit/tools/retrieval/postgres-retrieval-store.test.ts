import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PostgresRetrievalStore } from '../../../../src/tools/retrieval/store/postgres-retrieval-store.js';
import { retrievalStoreConformance } from './store-conformance.js';

/** Kysely's PostgresDialect over PGlite: a pool whose every client is the one PGlite session. */
function pglitePool(database: PGlite) {
  const client = {
    async query(text: string, parameters: unknown[]) {
      const result = await database.query(text, parameters);
      return { rows: result.rows, rowCount: result.affectedRows ?? 0, command: 'SELECT' };
    },
    release() {},
  };
  return { connect: async () => client, end: async () => {} };
}

/** Opens the store on `db` and empties the collections the suite uses (the tables are shared). */
async function freshStore(db: Kysely<unknown>, location: string): Promise<PostgresRetrievalStore> {
  const store = await PostgresRetrievalStore.open(db, location);
  await sql`DELETE FROM holodeck_retrieval_chunks WHERE collection IN ('a/tool', 'b/tool')`.execute(db);
  await sql`DELETE FROM holodeck_retrieval_files WHERE collection IN ('a/tool', 'b/tool')`.execute(db);
  await sql`DELETE FROM holodeck_retrieval_collections WHERE name IN ('a/tool', 'b/tool')`.execute(db);
  return store;
}

// One PGlite for the file: starting one costs seconds of WASM start-up.
let database: PGlite | undefined;

retrievalStoreConformance(
  'PostgreSQL on PGlite + pgvector',
  async () => {
    database ??= new PGlite({ extensions: { vector } });
    // The pool shape Kysely reads (connect, end, a client's query and release) is all PGlite needs.
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: pglitePool(database) as never }) });
    return freshStore(db, 'pglite');
  },
  { lock: 'PGlite is one session, and PostgreSQL advisory locks are re-entrant within a session' },
);

const url = process.env.HOLODECK_TEST_DATABASE_URL;
if (url) {
  retrievalStoreConformance('PostgreSQL server (HOLODECK_TEST_DATABASE_URL)', async () => {
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 4 }) }),
    });
    return freshStore(db, 'test server');
  });
}
