import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { describe, expect, it } from 'vitest';
import type { EmbeddedChunk } from '../../../../src/tools/retrieval/store/retrieval-store.js';
import { SqliteRetrievalStore } from '../../../../src/tools/retrieval/store/sqlite-retrieval-store.js';
import { cosineOfUnitDistance, unitVector } from '../../../../src/tools/retrieval/store/unit-vector.js';

const chunk = (n: number, embedding: number[]): EmbeddedChunk => ({
  id: `doc.md#${n}`,
  source: 'doc.md',
  title: 'doc',
  headingPath: [],
  text: `chunk ${n}`,
  metadata: {},
  embedding: Float32Array.from(embedding),
});

// Vectors of any length: the index stores them as unit vectors, scores stay cosine similarities.
const chunks = [chunk(1, [3, 0, 0, 0]), chunk(2, [1, 1, 0, 0]), chunk(3, [0, 0, 0.5, 0])];

async function search(file: string): Promise<{ id: string; score: number }[]> {
  const store = new SqliteRetrievalStore(file);
  try {
    const hits = await store.searchSemantic('a/tool', Float32Array.from([2, 0, 0, 0]), 3);
    return hits.map((hit) => ({ id: hit.chunk.id, score: hit.score }));
  } finally {
    await store.close();
  }
}

describe('SQLite semantic search on unit vectors', () => {
  it('normalises vectors and turns the L2 distance back into cosine similarity', () => {
    expect([...unitVector(Float32Array.from([3, 4]))]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect([...unitVector(Float32Array.from([0, 0]))]).toEqual([0, 0]);
    expect(cosineOfUnitDistance(0)).toBe(1);
    expect(cosineOfUnitDistance(Math.SQRT2)).toBeCloseTo(0, 12);
  });

  it('ranks by cosine, in a new index and in one built before (a cosine vec0 table)', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'holodeck-retrieval-')), 'index.sqlite');
    const store = new SqliteRetrievalStore(file);
    await store.resetCollection('a/tool', { model: 'fake', dimensions: 4 });
    await store.putFile('a/tool', 'doc.md', 'h', chunks);
    await store.close();
    const fresh = await search(file);
    expect(fresh.map((hit) => hit.id)).toEqual(['doc.md#1', 'doc.md#2', 'doc.md#3']);
    expect(fresh.map((hit) => hit.score)).toEqual([
      expect.closeTo(1, 6),
      expect.closeTo(Math.SQRT1_2, 6),
      expect.closeTo(0, 6),
    ]);

    // The vec0 table as earlier versions created it: raw vectors, cosine distance.
    const db = new Database(file);
    sqliteVec.load(db);
    db.exec('DROP TABLE vec_1');
    db.exec('CREATE VIRTUAL TABLE vec_1 USING vec0(embedding float[4] distance_metric=cosine)');
    const rowids = db.prepare('SELECT rowid FROM chunks ORDER BY rowid').all() as { rowid: number }[];
    rowids.forEach((row, index) => {
      db.prepare('INSERT INTO vec_1 (rowid, embedding) VALUES (?, ?)').run(
        BigInt(row.rowid),
        chunks[index]?.embedding,
      );
    });
    db.close();
    expect(await search(file)).toEqual(fresh.map((hit) => ({ ...hit, score: expect.closeTo(hit.score, 6) })));
  });
});
