#!/usr/bin/env node
// @ts-check
// Dense search and FTS5 top-k on the embedded index, side by side in one run: vector_index exact
// (sqlite-vec's float scan) vs quantized (1-bit scan + exact rescoring), p50/p99 and recall@10
// against exact, on seeded dense vectors shaped like an embedding model's (testkit's
// denseVectorSpace; never the hashed bags of words); and the keyword query as the store runs it
// (bm25() sorted by SQL) vs FTS5's own `rank` column with a LIMIT. Then the same chunks in the
// PostgreSQL store on PGlite with pgvector (the store's code, SQL and index; WASM, one process):
// exact, then vector_index hnsw at a few ef_search values, recall@10 against its exact search.
// See bench/README.md.
//
//   npm run build
//   node bench/retrieval-ann.mjs                                 # 100000 chunks, 1536-d (issue 22's size)
//   node bench/retrieval-ann.mjs --chunks 20000 --queries 50     # a smaller run
//   node bench/retrieval-ann.mjs --dimensions 384 --stores postgres --ef-search 40,100,200 --m 16 --ef-construction 64
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { integerOption, table } from './bench-format.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { SqliteRetrievalStore } = await import(
  '../packages/holodeck/dist/tools/retrieval/store/sqlite-retrieval-store.js'
);
const { denseVectorSpace } = await import('../packages/testkit/dist/index.js');

const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    dimensions: { type: 'string', default: '1536' },
    queries: { type: 'string', default: '200' },
    stores: { type: 'string', default: 'sqlite,postgres' },
    'ef-search': { type: 'string', default: '40,100,200' },
    m: { type: 'string', default: '16' },
    'ef-construction': { type: 'string', default: '64' },
  },
});
const CHUNKS = integerOption(values, 'chunks', 100);
const DIMENSIONS = integerOption(values, 'dimensions', 8);
const QUERIES = integerOption(values, 'queries', 10);
const STORES = new Set(String(values.stores).split(','));
for (const name of STORES) {
  if (name !== 'sqlite' && name !== 'postgres')
    throw new Error(`--stores: unknown store ${name} (sqlite, postgres)`);
}
const EF_SEARCH = String(values['ef-search'])
  .split(',')
  .map((value) => integerOption({ 'ef-search': value }, 'ef-search', 10));
const HNSW = {
  m: integerOption(values, 'm', 2),
  efConstruction: integerOption(values, 'ef-construction', 4),
};

const words = [
  ...new Set(
    readFileSync(path.join(here, '../README.md'), 'utf8')
      .toLowerCase()
      .match(/[a-z]{3,}/g),
  ),
];
let seed = 9;
const next = () => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed / 4294967296;
};
const word = () => words[Math.floor(words.length * next() ** 3)];
const text = (count) => Array.from({ length: count }, word).join(' ');

const percentile = (times, p) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
async function timed(run) {
  const times = [];
  const results = [];
  for (let index = 0; index < QUERIES; index++) {
    const start = performance.now();
    results.push(await run(index));
    times.push(performance.now() - start);
  }
  return { times, results };
}

/** recall@10 of `runs` against `exact`: the share of exact top-10 ids they found. */
function recall(run, exact) {
  let found = 0;
  run.results.forEach((hits, index) => {
    const wanted = new Set(exact.results[index].map((hit) => hit.chunk.id));
    found += hits.filter((hit) => wanted.has(hit.chunk.id)).length;
  });
  return found / (QUERIES * 10);
}

/**
 * Writes the bench's chunks (seeded: every store gets the same ones) through `store.putFile`,
 * 100 a file; returns the seconds it took, the query vectors and the keyword queries.
 */
async function ingest(store) {
  seed = 9;
  const space = denseVectorSpace(DIMENSIONS, { seed: 22 });
  await store.resetCollection('bench/tool', { model: 'dense', dimensions: DIMENSIONS, stemming: 'english' });
  const ingestStart = performance.now();
  for (let part = 0; part * 100 < CHUNKS; part++) {
    const source = `part-${part}.md`;
    const chunks = Array.from({ length: Math.min(100, CHUNKS - part * 100) }, (_, n) => ({
      id: `${source}#${n}`,
      source,
      title: source,
      headingPath: [],
      text: text(60),
      metadata: {},
      embedding: space.next(),
    }));
    await store.putFile('bench/tool', source, `h${part}`, chunks);
  }
  const ingestS = (performance.now() - ingestStart) / 1000;
  const vectors = Array.from({ length: QUERIES }, () => space.next());
  const terms = Array.from({ length: QUERIES }, () => [word(), word(), word()]);
  return { ingestS, vectors, terms };
}

/**
 * The same chunks and vectors as `ingest`, written straight into the store's chunks table 1,000
 * rows a statement: putFile's per-chunk keyword indexing takes ~20 ms a chunk on PGlite (43 s for
 * 2,000 on a loaded machine), too long at 100k for a bench of the vector index.
 */
async function bulkIngest(store, database) {
  seed = 9;
  const space = denseVectorSpace(DIMENSIONS, { seed: 22 });
  await store.resetCollection('bench/tool', { model: 'dense', dimensions: DIMENSIONS, stemming: 'english' });
  const start = performance.now();
  for (let first = 0; first < CHUNKS; first += 1000) {
    const count = Math.min(1000, CHUNKS - first);
    const ids = [];
    const texts = [];
    const embeddings = [];
    for (let n = first; n < first + count; n++) {
      // The ids and text of `ingest`'s chunks: file part-<n / 100>.md, chunk n % 100.
      ids.push(`part-${Math.floor(n / 100)}.md#${n % 100}`);
      texts.push(text(60));
      embeddings.push(`[${Array.from(space.next()).join(',')}]`);
    }
    await database.query(
      `INSERT INTO holodeck_retrieval_chunks (collection, source, chunk_id, title, heading_path, text, metadata, embedding)
       SELECT 'bench/tool', split_part(id, '#', 1), id, split_part(id, '#', 1), '[]'::jsonb, text, '{}'::jsonb, embedding::vector
       FROM unnest($1::text[], $2::text[], $3::text[]) AS rows (id, text, embedding)`,
      [ids, texts, embeddings],
    );
  }
  const ingestS = (performance.now() - start) / 1000;
  const vectors = Array.from({ length: QUERIES }, () => space.next());
  return { ingestS, vectors };
}

const row = (name, run, extra = '') => [
  name,
  percentile(run.times, 50).toFixed(1),
  percentile(run.times, 99).toFixed(1),
  extra,
];

/** The PostgreSQL store on PGlite + pgvector: exact, then hnsw at each ef_search; rows of the table. */
async function benchPostgres() {
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite/vector');
  const { Kysely, PostgresDialect } = await import('kysely');
  const { PostgresRetrievalStore } = await import(
    '../packages/holodeck/dist/tools/retrieval/store/postgres-retrieval-store.js'
  );
  const database = new PGlite({ extensions: { vector } });
  await database.waitReady;
  // Kysely's PostgresDialect over PGlite: every client of the pool is PGlite's one session.
  const client = {
    async query(text, parameters) {
      const result = await database.query(text, parameters);
      return { rows: result.rows, rowCount: result.affectedRows ?? 0, command: 'SELECT' };
    },
    release() {},
  };
  const pool = { connect: async () => client, end: async () => {} };
  const db = new Kysely({ dialect: new PostgresDialect({ pool: /** @type {never} */ (pool) }) });
  const store = await PostgresRetrievalStore.open(db, 'pglite');
  try {
    const { ingestS, vectors } = await bulkIngest(store, database);
    await database.query(`SET maintenance_work_mem = '1GB'`);
    await store.prepareVectorIndex('bench/tool', 'exact');
    const exact = await timed((index) => store.searchSemantic('bench/tool', vectors[index], 10));
    const buildStart = performance.now();
    await store.prepareVectorIndex('bench/tool', 'hnsw', { hnsw: HNSW });
    const buildS = (performance.now() - buildStart) / 1000;
    const rows = [row('PostgreSQL semantic, exact', exact, 'recall@10 1 (the reference)')];
    for (const efSearch of EF_SEARCH) {
      const run = await timed((index) =>
        store.searchSemantic('bench/tool', vectors[index], 10, { efSearch }),
      );
      rows.push(
        row(
          `PostgreSQL semantic, hnsw ef_search ${efSearch}`,
          run,
          `recall@10 ${recall(run, exact).toFixed(3)}`,
        ),
      );
    }
    const note = `PostgreSQL (PGlite in memory): bulk load ${ingestS.toFixed(1)} s (not putFile: no keyword index); hnsw build (m ${HNSW.m}, ef_construction ${HNSW.efConstruction}) ${buildS.toFixed(1)} s`;
    return { rows, note, exact };
  } finally {
    await store.close();
    await database.close();
  }
}

const loadAtStart = os.loadavg()[0].toFixed(1);
const folder = mkdtempSync(path.join(os.tmpdir(), 'holodeck-ann-'));
const file = path.join(folder, 'index.sqlite');
/** @type {unknown[][]} */
const rows = [];
const notes = [];
try {
  if (STORES.has('sqlite')) await benchSqlite();
  if (STORES.has('postgres')) {
    const postgres = await benchPostgres();
    rows.push(...postgres.rows);
    notes.push(postgres.note);
  }
  const load = os.loadavg()[0].toFixed(1);
  console.log(
    `${CHUNKS} chunks × ${DIMENSIONS}-d, ${QUERIES} queries; load average ${loadAtStart} at the start, ${load} at the end, on ${os.cpus().length} cores`,
  );
  for (const note of notes) console.log(note);
  console.log(table(['search', 'p50 ms', 'p99 ms', 'note'], rows));
} finally {
  rmSync(folder, { recursive: true, force: true });
}

/** The embedded store: exact, quantized, keyword, and the bare FTS5 query two ways. */
async function benchSqlite() {
  const store = new SqliteRetrievalStore(file);
  const { ingestS, vectors, terms } = await ingest(store);

  await store.prepareVectorIndex('bench/tool', 'exact');
  const exact = await timed((index) => store.searchSemantic('bench/tool', vectors[index], 10));
  const buildStart = performance.now();
  await store.prepareVectorIndex('bench/tool', 'quantized');
  const buildS = (performance.now() - buildStart) / 1000;
  const quantized = await timed((index) => store.searchSemantic('bench/tool', vectors[index], 10));
  const keyword = await timed((index) => store.searchKeyword('bench/tool', terms[index], 10));
  await store.close();

  // The FTS5 query alone, as the store runs it (bm25() ordered by SQL) and by FTS5's rank column.
  const db = new Database(file, { readonly: true });
  const ftsRow = /** @type {{ name: string } | undefined} */ (
    db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'fts_%' AND type = 'table'").get()
  );
  const fts = ftsRow?.name;
  const match = (index) => terms[index].map((term) => `"${term}"`).join(' OR ');
  const bySql = db.prepare(
    `SELECT rowid, bm25(${fts}, 3, 2, 1) AS score FROM ${fts} WHERE ${fts} MATCH ? ORDER BY score LIMIT 10`,
  );
  const byRank = db.prepare(
    `SELECT rowid, rank FROM ${fts} WHERE ${fts} MATCH ? AND rank MATCH 'bm25(3, 2, 1)' ORDER BY rank LIMIT 10`,
  );
  const matches = db.prepare(`SELECT count(*) AS n FROM ${fts} WHERE ${fts} MATCH ?`);
  const sqlRun = await timed((index) => bySql.all(match(index)));
  const rankRun = await timed((index) => byRank.all(match(index)));
  const counted = terms.map((_, index) => /** @type {{ n: number }} */ (matches.get(match(index))).n);
  const same = sqlRun.results.every(
    (rows, index) =>
      rows.map((row) => row.rowid).join() === rankRun.results[index].map((row) => row.rowid).join(),
  );
  db.close();

  notes.push(
    `SQLite: ingest ${ingestS.toFixed(1)} s (store.putFile, 100 chunks a file); quantized build ${buildS.toFixed(1)} s`,
  );
  rows.push(
    row('SQLite semantic, vector_index exact', exact, 'recall@10 1 (the reference)'),
    row(
      'SQLite semantic, vector_index quantized',
      quantized,
      `recall@10 ${recall(quantized, exact).toFixed(3)}`,
    ),
    row('SQLite keyword (store, 3 words)', keyword),
    row('FTS5 bm25() ORDER BY … LIMIT 10', sqlRun, `median ${percentile(counted, 50)} matches ranked`),
    row('FTS5 rank column, LIMIT 10', rankRun, same ? 'same top 10' : 'DIFFERENT top 10'),
  );
}
