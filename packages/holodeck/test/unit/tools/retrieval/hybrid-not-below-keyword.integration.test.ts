import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { startFakeOpenAI } from '@holodeck/testkit';
import { REAL_EMBEDDINGS_MODEL, startRealEmbeddings } from '@holodeck/testkit/embeddings';
import { Kysely, PostgresDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HierarchicalDocumentToolSchema } from '../../../../src/config/schema/retrieval-tool-schema.js';
import { EmbeddingsClient } from '../../../../src/tools/retrieval/embed/embeddings-client.js';
import { ingestCollection } from '../../../../src/tools/retrieval/ingest/ingest-collection.js';
import { listSourceFiles } from '../../../../src/tools/retrieval/ingest/list-source-files.js';
import { searchSettingsOf } from '../../../../src/tools/retrieval/retrieval-tool-settings.js';
import { searchIndex } from '../../../../src/tools/retrieval/search/search-index.js';
import { PostgresRetrievalStore } from '../../../../src/tools/retrieval/store/postgres-retrieval-store.js';
import type { RetrievalStore } from '../../../../src/tools/retrieval/store/retrieval-store.js';
import { SqliteRetrievalStore } from '../../../../src/tools/retrieval/store/sqlite-retrieval-store.js';
import { pglitePool } from './pglite-pool.js';

// Hybrid search with the default fusion is at least as good as keyword search alone, on the
// quality bench's 64 questions over real documentation (bench/retrieval-quality/), on both stores,
// with the real embedding model (whose weak semantic ranking once dragged hybrid below keyword:
// MRR@10 0.877 vs 0.902 on SQLite, recall@5 0.969 vs 0.984 on PostgreSQL) and with the hashed
// vectors. A chunk answers a question as in bench/retrieval-quality.mjs: it is of the question's
// file and holds its evidence phrase.

const dataDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../../bench/retrieval-quality',
);
const source = path.join(dataDir, 'corpus/docs');
interface Question {
  q: string;
  source: string;
  evidence: string;
}
const questions = JSON.parse(readFileSync(path.join(dataDir, 'questions.json'), 'utf8')) as Question[];
const normalise = (text: string) =>
  text
    .replace(/[\\*_`]/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();

const config = (mode: 'keyword' | 'hybrid') =>
  HierarchicalDocumentToolSchema.parse({
    type: 'hierarchical_document',
    name: 'docs',
    description: 'd',
    source,
    search_mode: mode,
  });

let database: PGlite | undefined;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  database = new PGlite({ extensions: { vector } });
  await database.waitReady;
}, 120_000);
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await database?.close();
});

async function openStores(): Promise<Record<'sqlite' | 'postgres', RetrievalStore>> {
  const sqlite = new SqliteRetrievalStore(
    path.join(mkdtempSync(path.join(tmpdir(), 'holodeck-hybrid-')), 'i.sqlite'),
  );
  const postgres = await PostgresRetrievalStore.open(
    new Kysely<unknown>({ dialect: new PostgresDialect({ pool: pglitePool(database as PGlite) as never }) }),
    'pglite',
  );
  closers.push(() => sqlite.close());
  return { sqlite, postgres };
}

interface Figures {
  recall5: number;
  mrr10: number;
}

/** recall@5 and MRR@10 of `mode` (defaults otherwise) over every question. */
async function measure(
  store: RetrievalStore,
  collection: string,
  embed: (query: string) => Promise<Float32Array>,
  mode: 'keyword' | 'hybrid',
): Promise<Figures> {
  const settings = { ...searchSettingsOf(config(mode)), topK: 10 };
  let recall5 = 0;
  let mrr10 = 0;
  for (const question of questions) {
    const hits = await searchIndex(store, collection, question.q, embed, settings);
    const evidence = normalise(question.evidence);
    const first = hits.findIndex(
      (hit) => hit.chunk.source === question.source && normalise(hit.chunk.text).includes(evidence),
    );
    if (first >= 0 && first < 5) recall5 += 1;
    if (first >= 0) mrr10 += 1 / (first + 1);
  }
  return { recall5: recall5 / questions.length, mrr10: mrr10 / questions.length };
}

async function expectHybridNotBelowKeyword(model: { url: string; name: string }, collection: string) {
  const client = new EmbeddingsClient({
    provider: 'openai',
    model: model.name,
    url: model.url,
    headers: { authorization: 'Bearer test' },
    providerField: 'model',
    secrets: [],
  });
  const vectors = new Map<string, Float32Array>();
  const embed = async (query: string) => {
    if (!vectors.has(query)) vectors.set(query, (await client.embed([query]))[0] as Float32Array);
    return vectors.get(query) as Float32Array;
  };
  const listing = await listSourceFiles(source, undefined, undefined);
  for (const [name, store] of Object.entries(await openStores())) {
    const report = await ingestCollection({ store, collection, config: config('hybrid'), listing, client });
    expect(report.failures).toEqual([]);
    const keyword = await measure(store, collection, embed, 'keyword');
    const hybrid = await measure(store, collection, embed, 'hybrid');
    // Keyword search finds nearly every answer here, so the bound is not met by a broken search.
    expect(keyword.recall5, name).toBeGreaterThan(0.95);
    expect(hybrid.recall5, `${name}: hybrid recall@5 below keyword`).toBeGreaterThanOrEqual(keyword.recall5);
    expect(hybrid.mrr10 + 1e-9, `${name}: hybrid MRR@10 below keyword`).toBeGreaterThanOrEqual(keyword.mrr10);
  }
}

describe('hybrid search (defaults) on the quality set is at least as good as keyword alone', () => {
  it('with the real embedding model, on SQLite and PostgreSQL', async () => {
    const server = await startRealEmbeddings();
    closers.push(() => server.close());
    await expectHybridNotBelowKeyword(
      { url: `${server.baseUrl}/embeddings`, name: REAL_EMBEDDINGS_MODEL },
      'real/docs',
    );
  }, 600_000);

  it('with the hashed vectors, on SQLite and PostgreSQL', async () => {
    const server = await startFakeOpenAI({ embeddingDimensions: 384 });
    closers.push(() => server.close());
    await expectHybridNotBelowKeyword(
      { url: `${server.url}/v1/embeddings`, name: 'hashed-384' },
      'hashed/docs',
    );
  }, 300_000);
});
