import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EmbeddedChunk } from '../../../../src/tools/retrieval/store/retrieval-store.js';
import { SqliteRetrievalStore } from '../../../../src/tools/retrieval/store/sqlite-retrieval-store.js';

const chunk = (n: number, text: string): EmbeddedChunk => ({
  id: `doc.md#${n}`,
  source: 'doc.md',
  title: 'doc',
  headingPath: [],
  text,
  metadata: {},
  embedding: Float32Array.from([1, 0, 0, 0]),
});

// "the" is in every chunk: the search matches on "refund" alone, and still lists the chunks with
// only "the" when "refund" finds fewer than asked.
describe('SQLite keyword search with a term in most chunks', () => {
  it('ranks by the rarer term, and fills up with the common one', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'holodeck-retrieval-')), 'index.sqlite');
    const store = new SqliteRetrievalStore(file);
    try {
      await store.resetCollection('a/tool', { model: 'fake', dimensions: 4 });
      await store.putFile('a/tool', 'doc.md', 'h', [
        chunk(1, 'the shipping times'),
        chunk(2, 'the refund policy'),
        chunk(3, 'the warranty terms'),
      ]);
      const one = await store.searchKeyword('a/tool', ['the', 'refund'], 1);
      expect(one.map((hit) => hit.chunk.id)).toEqual(['doc.md#2']);
      const all = await store.searchKeyword('a/tool', ['the', 'refund'], 5);
      expect(all.map((hit) => hit.chunk.id)[0]).toBe('doc.md#2');
      expect(all).toHaveLength(3);
      expect(await store.searchKeyword('a/tool', ['nothing', 'the'], 5)).toHaveLength(3);
    } finally {
      await store.close();
    }
  });
});
