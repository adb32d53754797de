import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { denseVectorSpace } from '@holodeck/testkit';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedChunk } from '../../../../src/tools/retrieval/store/retrieval-store.js';
import { AUTO_INDEX_FROM_CHUNKS } from '../../../../src/tools/retrieval/store/retrieval-store.js';
import { SqliteRetrievalStore } from '../../../../src/tools/retrieval/store/sqlite-retrieval-store.js';

const DIMENSIONS = 1536;
const CHUNKS = 3000;
const QUERIES = 40;

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

const indexFile = () =>
  path.join(mkdtempSync(path.join(tmpdir(), 'holodeck-quantized-')), '.holodeck', 'index', 'agent.sqlite');

const ids = (hits: { chunk: { id: string } }[]) => hits.map((hit) => hit.chunk.id);

// Dense 1536-d vectors shaped like an embedding model's (testkit's denseVectorSpace), never the
// hashed bags of words, on which approximate search looks useless.
describe('SQLite vector_index quantized: a 1-bit scan with exact rescoring', () => {
  const space = denseVectorSpace(DIMENSIONS, { seed: 22 });
  const queries = Array.from({ length: QUERIES }, () => space.next());
  let file: string;
  let store: SqliteRetrievalStore;
  let exact: string[][];

  beforeAll(async () => {
    file = indexFile();
    store = new SqliteRetrievalStore(file);
    await store.resetCollection('a/tool', { model: 'dense', dimensions: DIMENSIONS });
    for (let part = 0; part < CHUNKS / 100; part++) {
      const source = `part-${part}.md`;
      await store.putFile(
        'a/tool',
        source,
        `h${part}`,
        Array.from({ length: 100 }, (_, n) => chunk(source, n, space.next())),
      );
    }
    expect(await store.prepareVectorIndex('a/tool', 'exact')).toBe('exact');
    exact = [];
    for (const query of queries) exact.push(ids(await store.searchSemantic('a/tool', query, 10)));
  }, 120_000);
  afterAll(() => store.close());

  it('finds ≥ 0.95 of the exact top 10, with the exact cosine as score', async () => {
    expect(await store.prepareVectorIndex('a/tool', 'quantized')).toBe('quantized');
    let found = 0;
    for (const [index, query] of queries.entries()) {
      const hits = await store.searchSemantic('a/tool', query, 10);
      const wanted = new Set(exact[index]);
      found += hits.filter((hit) => wanted.has(hit.chunk.id)).length;
      for (const hit of hits) {
        expect(hit.score).toBeLessThanOrEqual(1);
        expect(hit.score).toBeGreaterThan(0);
      }
      expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a));
    }
    expect(found / (QUERIES * 10)).toBeGreaterThanOrEqual(0.95);
  });

  it('keeps the quantized tables in step with every write, and drops them for exact', async () => {
    expect(await store.prepareVectorIndex('a/tool', 'quantized')).toBe('quantized');
    const probe = space.next();
    await store.putFile('a/tool', 'probe.md', 'hp', [chunk('probe.md', 0, probe)]);
    expect(ids(await store.searchSemantic('a/tool', probe, 1))).toEqual(['probe.md#0']);
    await store.deleteFile('a/tool', 'probe.md');
    expect(ids(await store.searchSemantic('a/tool', probe, 10))).not.toContain('probe.md#0');
    // Another connection (another process) sees the same index and searches it the same way.
    const other = new SqliteRetrievalStore(file);
    try {
      expect(ids(await other.searchSemantic('a/tool', queries[0] as Float32Array, 10))).toEqual(
        ids(await store.searchSemantic('a/tool', queries[0] as Float32Array, 10)),
      );
    } finally {
      await other.close();
    }
    expect(await store.prepareVectorIndex('a/tool', 'exact')).toBe('exact');
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'vecbits_%'").all()).toEqual([]);
    } finally {
      db.close();
    }
    expect(ids(await store.searchSemantic('a/tool', queries[1] as Float32Array, 10))).toEqual(exact[1]);
  });

  it(`auto stays exact below ${AUTO_INDEX_FROM_CHUNKS} chunks; hnsw is refused`, async () => {
    expect(await store.prepareVectorIndex('a/tool', 'auto')).toBe('exact');
    expect(await store.prepareVectorIndex('new/tool', 'auto')).toBe('exact');
    await expect(store.prepareVectorIndex('a/tool', 'hnsw')).rejects.toThrow(
      'vector_index hnsw needs the PostgreSQL index; the embedded index offers exact and quantized',
    );
  });
});
