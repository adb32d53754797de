#!/usr/bin/env node
// @ts-check
// Dense search and FTS5 top-k on the embedded index, side by side in one run: vector_index exact
// (sqlite-vec's float scan) vs quantized (1-bit scan + exact rescoring), p50/p99 and recall@10
// against exact, on seeded dense vectors shaped like an embedding model's (testkit's
// denseVectorSpace; never the hashed bags of words); and the keyword query as the store runs it
// (bm25() sorted by SQL) vs FTS5's own `rank` column with a LIMIT. See bench/README.md.
//
//   npm run build
//   node bench/retrieval-ann.mjs                                 # 100000 chunks, 1536-d (issue 22's size)
//   node bench/retrieval-ann.mjs --chunks 20000 --queries 50     # a smaller run
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
  },
});
const CHUNKS = integerOption(values, 'chunks', 100);
const DIMENSIONS = integerOption(values, 'dimensions', 8);
const QUERIES = integerOption(values, 'queries', 10);

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

const folder = mkdtempSync(path.join(os.tmpdir(), 'holodeck-ann-'));
const file = path.join(folder, 'index.sqlite');
try {
  const store = new SqliteRetrievalStore(file);
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

  await store.prepareVectorIndex('bench/tool', 'exact');
  const exact = await timed((index) => store.searchSemantic('bench/tool', vectors[index], 10));
  const buildStart = performance.now();
  await store.prepareVectorIndex('bench/tool', 'quantized');
  const buildS = (performance.now() - buildStart) / 1000;
  const quantized = await timed((index) => store.searchSemantic('bench/tool', vectors[index], 10));
  let found = 0;
  quantized.results.forEach((hits, index) => {
    const wanted = new Set(exact.results[index].map((hit) => hit.chunk.id));
    found += hits.filter((hit) => wanted.has(hit.chunk.id)).length;
  });
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

  const load = os.loadavg()[0].toFixed(1);
  console.log(
    `${CHUNKS} chunks × ${DIMENSIONS}-d, ${QUERIES} queries; load average ${load} on ${os.cpus().length} cores`,
  );
  console.log(
    `ingest ${ingestS.toFixed(1)} s (store.putFile, 100 chunks a file); quantized build ${buildS.toFixed(1)} s`,
  );
  const row = (name, run, extra = '') => [
    name,
    percentile(run.times, 50).toFixed(1),
    percentile(run.times, 99).toFixed(1),
    extra,
  ];
  console.log(
    table(
      ['search', 'p50 ms', 'p99 ms', 'note'],
      [
        row('semantic, vector_index exact', exact, 'recall@10 1 (the reference)'),
        row(
          'semantic, vector_index quantized',
          quantized,
          `recall@10 ${(found / (QUERIES * 10)).toFixed(3)}`,
        ),
        row('keyword (store, 3 words)', keyword),
        row('FTS5 bm25() ORDER BY … LIMIT 10', sqlRun, `median ${percentile(counted, 50)} matches ranked`),
        row('FTS5 rank column, LIMIT 10', rankRun, same ? 'same top 10' : 'DIFFERENT top 10'),
      ],
    ),
  );
} finally {
  rmSync(folder, { recursive: true, force: true });
}
