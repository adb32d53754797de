import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { type FakeOpenAIServer, startFakeOpenAI } from '@holodeck/testkit';
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
import { pglitePool } from './pglite-pool.js';

// agent.yaml's hnsw block through the ingest `holodeck ingest` runs, on PGlite with pgvector: the
// index is built with the tool's parameters, and a change rebuilds it (said once, nothing embedded).
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
