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
import { ingestCollection } from '../../../../src/tools/retrieval/ingest/ingest-collection.js';
import { listSourceFiles } from '../../../../src/tools/retrieval/ingest/list-source-files.js';
import { retrievalSearchTool } from '../../../../src/tools/retrieval/retrieval-search-tool.js';
import { PostgresRetrievalStore } from '../../../../src/tools/retrieval/store/postgres-retrieval-store.js';
import type { RetrievalStore } from '../../../../src/tools/retrieval/store/retrieval-store.js';
import { SqliteRetrievalStore } from '../../../../src/tools/retrieval/store/sqlite-retrieval-store.js';
import { retrievalCorpus } from '../../../support/retrieval-corpus.js';

// Ingest, re-ingest and search of the mixed corpus (markdown, HTML, PDF, DOCX) through the same
// code `holodeck ingest` and the `<name>_search` tool run, on both stores: the embedded SQLite
// index and the PostgreSQL one (on PGlite with pgvector; the CLI tests cover SQLite through the
// real CLI, and a CLI cannot reach PGlite, which has no network).
let embeddings: FakeOpenAIServer;
let pglite: PGlite | undefined;
beforeAll(async () => {
  embeddings = await startFakeOpenAI({ embeddingDimensions: 64 });
  pglite = new PGlite({ extensions: { vector } });
  await pglite.waitReady;
}, 60_000);
afterAll(async () => {
  await embeddings.close();
  await pglite?.close();
});

function pgliteStore(): Promise<PostgresRetrievalStore> {
  const database = pglite;
  if (!database) throw new Error('PGlite is not started');
  const client = {
    async query(text: string, parameters: unknown[]) {
      const result = await database.query(text, parameters);
      return { rows: result.rows, rowCount: result.affectedRows ?? 0, command: 'SELECT' };
    },
    release() {},
  };
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: { connect: async () => client, end: async () => {} } as never }),
  });
  return PostgresRetrievalStore.open(db, 'pglite').then(async (store) => {
    await sql`DELETE FROM holodeck_retrieval_chunks`.execute(db);
    await sql`DELETE FROM holodeck_retrieval_files`.execute(db);
    await sql`DELETE FROM holodeck_retrieval_collections`.execute(db);
    return store;
  });
}

const stores: [string, (folder: string) => Promise<RetrievalStore>][] = [
  [
    'SQLite',
    async (folder) => new SqliteRetrievalStore(path.join(folder, '.holodeck', 'index', 'agent.sqlite')),
  ],
  ['PostgreSQL (PGlite + pgvector)', () => pgliteStore()],
];

describe.each(stores)('ingest and search on %s', (_name, openStore) => {
  it('indexes every format, re-embeds only what changed, and answers with cited results', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'holodeck-ingest-'));
    mkdirSync(path.join(folder, 'docs'));
    for (const [relative, content] of Object.entries(retrievalCorpus()))
      writeFileSync(path.join(folder, relative), content);
    const config = HierarchicalDocumentToolSchema.parse({
      type: 'hierarchical_document',
      name: 'handbook',
      description: 'Company handbook',
      source: path.join(folder, 'docs'),
      top_k: 2,
    });
    const client = new EmbeddingsClient({
      provider: 'openai',
      model: 'text-embedding-3-small',
      url: `${embeddings.baseUrl}/embeddings`,
      headers: { authorization: 'Bearer sk-test' },
      providerField: 'embedding_provider',
      secrets: ['sk-test'],
    });
    const store = await openStore(folder);
    const ingest = async () =>
      ingestCollection({
        store,
        collection: 'agent/handbook',
        config,
        client,
        listing: await listSourceFiles(config.source, config.include, config.exclude),
      });
    try {
      const first = await ingest();
      expect(first).toMatchObject({ files: 4, indexed: 4, unchanged: 0, removed: 0, failures: [] });
      expect(first.unsupported).toEqual(['diagram.xyz']);
      expect(first.embedded).toBe(first.chunks);

      const again = await ingest();
      expect(again).toMatchObject({ indexed: 0, unchanged: 4, embedded: 0, chunks: first.chunks });

      writeFileSync(
        path.join(folder, 'docs/policies.md'),
        '# Policies\n\n## Refunds\n\nRefunds take 14 days now.\n',
      );
      rmSync(path.join(folder, 'docs/faq.html'));
      const changed = await ingest();
      expect(changed).toMatchObject({ indexed: 1, unchanged: 2, removed: 1, embedded: 1 });

      const tool = retrievalSearchTool(config, store, 'agent/handbook', client);
      const refunds = await tool.execute({ query: 'refunds take days' });
      expect(refunds.isError).toBe(false);
      expect(refunds.text).toMatch(
        /^\[1\] source: policies\.md \| heading: Policies > Refunds \| section: policies\/refunds \| chunk: policies\.md#1 \| score: \d\.\d{4}\nRefunds take 14 days now\./,
      );
      const warranty = await tool.execute({ query: 'warranty two years' });
      expect(warranty.text).toMatch(/^\[1\] source: manual\.pdf \| page: 1 \| chunk: manual\.pdf#1 \|/);
      const leave = await tool.execute({ query: 'sick leave manager' });
      expect(leave.text).toContain(
        'source: leave.docx | heading: Leave > Sick leave | section: leave/sick-leave',
      );
      expect((await tool.execute({ query: 'passwords reset login' })).text).not.toContain('faq.html');
      expect(await tool.execute({ query: '' })).toEqual({
        text: 'Invalid arguments for "handbook_search": expected { "query": "<non-empty text>" }',
        isError: true,
      });
    } finally {
      await store.close();
    }
  }, 60_000);
});
