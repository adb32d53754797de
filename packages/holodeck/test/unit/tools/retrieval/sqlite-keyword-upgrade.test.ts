import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { describe, expect, it } from 'vitest';
import { SqliteRetrievalStore } from '../../../../src/tools/retrieval/store/sqlite-retrieval-store.js';

/** An index as the previous version wrote it: every tool's keywords in one chunks_fts table. */
function writeOldIndex(file: string): void {
  const db = new Database(file);
  sqliteVec.load(db);
  db.exec(`
    CREATE TABLE collections (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, model TEXT NOT NULL, dimensions INTEGER NOT NULL);
    CREATE TABLE files (collection_id INTEGER NOT NULL, source TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (collection_id, source));
    CREATE TABLE chunks (rowid INTEGER PRIMARY KEY, collection_id INTEGER NOT NULL, source TEXT NOT NULL, chunk_id TEXT NOT NULL,
      title TEXT NOT NULL, heading_path TEXT NOT NULL, section_id TEXT, page INTEGER, text TEXT NOT NULL, metadata TEXT NOT NULL);
    CREATE VIRTUAL TABLE chunks_fts USING fts5(collection_id UNINDEXED, title, heading, text);
    INSERT INTO collections VALUES (1, 'a/tool', 'fake', 2), (2, 'b/tool', 'fake', 2);
    CREATE VIRTUAL TABLE vec_1 USING vec0(embedding float[2]);
    CREATE VIRTUAL TABLE vec_2 USING vec0(embedding float[2]);
  `);
  const rows = [
    [1, 1, 'refund desk'],
    [2, 1, 'shipping desk'],
    [3, 2, 'refund one'],
    [4, 2, 'refund two'],
  ] as const;
  for (const [rowid, collection, text] of rows) {
    db.prepare(
      "INSERT INTO chunks VALUES (?, ?, 'x.md', ?, 'x', '[\"Policies\"]', 'policies', NULL, ?, '{}')",
    ).run(rowid, collection, `x.md#${rowid}`, text);
    db.prepare(
      'INSERT INTO chunks_fts (rowid, collection_id, title, heading, text) VALUES (?, ?, ?, ?, ?)',
    ).run(rowid, collection, 'x', 'Policies', text);
    db.prepare(`INSERT INTO vec_${collection} (rowid, embedding) VALUES (?, ?)`).run(
      BigInt(rowid),
      Float32Array.from([1, 0]),
    );
  }
  db.close();
}

describe('SQLite index of the previous version (one FTS5 table for every tool)', () => {
  it('gives each collection its own keyword table on first use, with the same chunks found', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'holodeck-retrieval-')), 'index.sqlite');
    writeOldIndex(file);
    const store = new SqliteRetrievalStore(file);
    try {
      expect(await store.getMeta('a/tool')).toEqual({ model: 'fake', dimensions: 2, stemming: 'none' });
      const hits = await store.searchKeyword('a/tool', ['refund', 'desk'], 5);
      expect(hits.map((hit) => hit.chunk.id)).toEqual(['x.md#1', 'x.md#2']);
      expect(hits[0]?.chunk.headingPath).toEqual(['Policies']);
      expect((await store.searchKeyword('b/tool', ['refund'], 5)).map((hit) => hit.chunk.id).sort()).toEqual([
        'x.md#3',
        'x.md#4',
      ]);
      await store.deleteFile('a/tool', 'x.md');
      expect(await store.searchKeyword('a/tool', ['desk'], 5)).toEqual([]);
      expect(await store.searchKeyword('b/tool', ['refund'], 5)).toHaveLength(2);
    } finally {
      await store.close();
    }
    // The moved rows are gone from the old table.
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM chunks_fts').get()).toEqual({ n: 0 });
    db.close();
  });
});
