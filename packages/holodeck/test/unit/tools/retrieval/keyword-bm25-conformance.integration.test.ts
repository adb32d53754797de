import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { Kysely, PostgresDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HierarchicalDocumentToolSchema } from '../../../../src/config/schema/retrieval-tool-schema.js';
import type { Chunk } from '../../../../src/tools/retrieval/chunk/chunk.js';
import { listSourceFiles } from '../../../../src/tools/retrieval/ingest/list-source-files.js';
import { parseSourceFile } from '../../../../src/tools/retrieval/parse/parse-source-file.js';
import { chunkerOf } from '../../../../src/tools/retrieval/retrieval-tool-settings.js';
import { PostgresRetrievalStore } from '../../../../src/tools/retrieval/store/postgres-retrieval-store.js';
import {
  queryTerms,
  type RetrievalStore,
  type Stemming,
} from '../../../../src/tools/retrieval/store/retrieval-store.js';
import { SqliteRetrievalStore } from '../../../../src/tools/retrieval/store/sqlite-retrieval-store.js';
import { pglitePool } from './pglite-pool.js';

// Both stores rank keywords by BM25 with the same formula and statistics: given the same corpus
// (the quality bench's real documentation, bench/retrieval-quality/) they return the same top-k.

const dataDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../../bench/retrieval-quality',
);
const questions = JSON.parse(readFileSync(path.join(dataDir, 'questions.json'), 'utf8')) as { q: string }[];

const chunks: Chunk[] = [];
let database: PGlite | undefined;
beforeAll(async () => {
  const config = HierarchicalDocumentToolSchema.parse({
    type: 'hierarchical_document',
    name: 'docs',
    description: 'd',
    source: 'docs',
  });
  const chunker = chunkerOf(config);
  const listing = await listSourceFiles(path.join(dataDir, 'corpus/docs'), undefined, undefined);
  for (const file of listing.files)
    chunks.push(...chunker(file.relative, await parseSourceFile(file.absolute, { metaFields: [] })));
  database = new PGlite({ extensions: { vector } });
  await database.waitReady;
}, 120_000);
afterAll(() => database?.close());

async function fill(store: RetrievalStore, stemming: Stemming): Promise<void> {
  await store.resetCollection('bench/docs', { model: 'none', dimensions: 2, stemming });
  const bySource = new Map<string, Chunk[]>();
  for (const chunk of chunks) bySource.set(chunk.source, [...(bySource.get(chunk.source) ?? []), chunk]);
  for (const [source, list] of bySource)
    await store.putFile(
      'bench/docs',
      source,
      'h',
      list.map((chunk) => ({ ...chunk, embedding: Float32Array.from([1, 0]) })),
    );
}

describe('keyword search: SQLite (FTS5 bm25) and PostgreSQL (BM25 from kept statistics)', () => {
  it('return the same top 5, with the same scores, for every question of the quality set', async () => {
    const sqlite = new SqliteRetrievalStore(
      path.join(mkdtempSync(path.join(tmpdir(), 'holodeck-bm25-')), 'i.sqlite'),
    );
    const postgres = await PostgresRetrievalStore.open(
      new Kysely<unknown>({
        dialect: new PostgresDialect({ pool: pglitePool(database as PGlite) as never }),
      }),
      'pglite',
    );
    try {
      await fill(sqlite, 'none');
      await fill(postgres, 'none');
      expect(chunks.length).toBeGreaterThan(50);
      for (const question of questions) {
        const terms = queryTerms(question.q);
        const [a, b] = await Promise.all([
          sqlite.searchKeyword('bench/docs', terms, 5),
          postgres.searchKeyword('bench/docs', terms, 5),
        ]);
        expect(
          b.map((hit) => hit.chunk.id),
          question.q,
        ).toEqual(a.map((hit) => hit.chunk.id));
        b.forEach((hit, index) => {
          expect(hit.score, question.q).toBeCloseTo(a[index]?.score ?? Number.NaN, 6);
        });
      }
    } finally {
      await sqlite.close();
    }
  }, 120_000);
});
