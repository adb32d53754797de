import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { Chunk } from '../chunk/chunk.js';
import { withFileLock } from './file-lock.js';
import { keywordTerms } from './keyword-terms.js';
import type { CollectionMeta, EmbeddedChunk, RetrievalStore, ScoredChunk } from './retrieval-store.js';
import { cosineOfUnitDistance, unitVector } from './unit-vector.js';

interface ChunkRow {
  rowid: number;
  source: string;
  chunk_id: string;
  title: string;
  heading_path: string;
  section_id: string | null;
  page: number | null;
  text: string;
  metadata: string;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS collections (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, model TEXT NOT NULL, dimensions INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS files (
    collection_id INTEGER NOT NULL, source TEXT NOT NULL, hash TEXT NOT NULL,
    PRIMARY KEY (collection_id, source)
  );
  CREATE TABLE IF NOT EXISTS chunks (
    rowid INTEGER PRIMARY KEY, collection_id INTEGER NOT NULL, source TEXT NOT NULL, chunk_id TEXT NOT NULL,
    title TEXT NOT NULL, heading_path TEXT NOT NULL, section_id TEXT, page INTEGER, text TEXT NOT NULL,
    metadata TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS chunks_by_source ON chunks (collection_id, source);
  CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(collection_id UNINDEXED, title, heading, text);
`;

/** Per-connection view of chunks_fts's terms (temp: nothing is written to the index file). */
const VOCABULARY = `CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_fts_terms USING fts5vocab(main, chunks_fts, 'row')`;

/** BM25 column weights of chunks_fts: (collection_id, title, heading path, text). */
const BM25_WEIGHTS = '0.0, 3.0, 2.0, 1.0';

function toChunk(row: ChunkRow): Chunk {
  return {
    id: row.chunk_id,
    source: row.source,
    title: row.title,
    headingPath: JSON.parse(row.heading_path) as string[],
    ...(row.section_id !== null ? { sectionId: row.section_id } : {}),
    ...(row.page !== null ? { page: row.page } : {}),
    text: row.text,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
  };
}

/** FTS5 query matching any of the terms; each is quoted, so no word is read as an operator. */
function ftsQuery(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}

/**
 * The embedded index: one SQLite file (WAL) per agent with better-sqlite3, vectors in a
 * sqlite-vec `vec0` table per collection (unit vectors under L2, the collection's own dimension),
 * keywords in one FTS5 table (BM25). Ingests are serialised by a lock file next to it.
 */
export class SqliteRetrievalStore implements RetrievalStore {
  readonly location: string;
  private readonly db: Database.Database;
  /** Whether a collection's vec0 table is of an older index (cosine over raw vectors), by id. */
  private readonly cosineTables = new Map<number, boolean>();

  constructor(file: string) {
    this.location = file;
    mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 10000');
    sqliteVec.load(this.db);
    this.db.exec(SCHEMA);
    this.db.exec(VOCABULARY);
  }

  private collectionId(name: string): number | undefined {
    const row = this.db.prepare('SELECT id FROM collections WHERE name = ?').get(name) as
      | { id: number }
      | undefined;
    return row?.id;
  }

  private requireCollection(name: string): number {
    const id = this.collectionId(name);
    if (id === undefined)
      throw new Error(`collection "${name}" has no metadata: call resetCollection() first`);
    return id;
  }

  async withIngestLock<T>(
    collection: string,
    onWait: (message: string) => void,
    work: () => Promise<T>,
  ): Promise<T> {
    return withFileLock(
      `${this.location}.lock`,
      (holder) =>
        onWait(
          `waiting for another holodeck process${holder !== undefined ? ` (pid ${holder})` : ''} that is ingesting into ${this.location} (tool ${collection})`,
        ),
      work,
    );
  }

  async getMeta(collection: string): Promise<CollectionMeta | undefined> {
    const row = this.db.prepare('SELECT model, dimensions FROM collections WHERE name = ?').get(collection) as
      | CollectionMeta
      | undefined;
    return row ? { model: row.model, dimensions: row.dimensions } : undefined;
  }

  async resetCollection(collection: string, meta: CollectionMeta): Promise<void> {
    this.db.transaction(() => {
      const id = this.collectionId(collection);
      if (id !== undefined) {
        this.db
          .prepare('DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks WHERE collection_id = ?)')
          .run(id);
        this.db.prepare('DELETE FROM chunks WHERE collection_id = ?').run(id);
        this.db.prepare('DELETE FROM files WHERE collection_id = ?').run(id);
        this.db.exec(`DROP TABLE IF EXISTS vec_${id}`);
        this.db
          .prepare('UPDATE collections SET model = ?, dimensions = ? WHERE id = ?')
          .run(meta.model, meta.dimensions, id);
      } else {
        this.db
          .prepare('INSERT INTO collections (name, model, dimensions) VALUES (?, ?, ?)')
          .run(collection, meta.model, meta.dimensions);
      }
      const created = this.requireCollection(collection);
      // Unit vectors under L2 (see unitVector): the same ranking as cosine, a faster scan.
      this.db.exec(`CREATE VIRTUAL TABLE vec_${created} USING vec0(embedding float[${meta.dimensions}])`);
      this.cosineTables.delete(created);
    })();
  }

  async listFiles(collection: string): Promise<Map<string, string>> {
    const id = this.collectionId(collection);
    if (id === undefined) return new Map();
    const rows = this.db.prepare('SELECT source, hash FROM files WHERE collection_id = ?').all(id) as {
      source: string;
      hash: string;
    }[];
    return new Map(rows.map((row) => [row.source, row.hash]));
  }

  private removeFile(id: number, source: string): void {
    const rowids = (
      this.db.prepare('SELECT rowid FROM chunks WHERE collection_id = ? AND source = ?').all(id, source) as {
        rowid: number;
      }[]
    ).map((row) => BigInt(row.rowid));
    const deleteVector = this.db.prepare(`DELETE FROM vec_${id} WHERE rowid = ?`);
    const deleteFts = this.db.prepare('DELETE FROM chunks_fts WHERE rowid = ?');
    for (const rowid of rowids) {
      deleteVector.run(rowid);
      deleteFts.run(rowid);
    }
    this.db.prepare('DELETE FROM chunks WHERE collection_id = ? AND source = ?').run(id, source);
    this.db.prepare('DELETE FROM files WHERE collection_id = ? AND source = ?').run(id, source);
  }

  async putFile(
    collection: string,
    source: string,
    hash: string,
    chunks: readonly EmbeddedChunk[],
  ): Promise<void> {
    const id = this.requireCollection(collection);
    const insertChunk = this.db.prepare(
      'INSERT INTO chunks (collection_id, source, chunk_id, title, heading_path, section_id, page, text, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insertVector = this.db.prepare(`INSERT INTO vec_${id} (rowid, embedding) VALUES (?, ?)`);
    const insertFts = this.db.prepare(
      'INSERT INTO chunks_fts (rowid, collection_id, title, heading, text) VALUES (?, ?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      this.removeFile(id, source);
      for (const chunk of chunks) {
        const { lastInsertRowid } = insertChunk.run(
          id,
          source,
          chunk.id,
          chunk.title,
          JSON.stringify(chunk.headingPath),
          chunk.sectionId ?? null,
          chunk.page ?? null,
          chunk.text,
          JSON.stringify(chunk.metadata),
        );
        const rowid = BigInt(lastInsertRowid);
        insertVector.run(rowid, this.isCosineTable(id) ? chunk.embedding : unitVector(chunk.embedding));
        insertFts.run(rowid, id, chunk.title, chunk.headingPath.join(' '), chunk.text);
      }
      this.db
        .prepare('INSERT INTO files (collection_id, source, hash) VALUES (?, ?, ?)')
        .run(id, source, hash);
    })();
  }

  async deleteFile(collection: string, source: string): Promise<void> {
    const id = this.collectionId(collection);
    if (id === undefined) return;
    this.db.transaction(() => this.removeFile(id, source))();
  }

  async countChunks(collection: string): Promise<number> {
    const id = this.collectionId(collection);
    if (id === undefined) return 0;
    return (
      this.db.prepare('SELECT count(*) AS n FROM chunks WHERE collection_id = ?').get(id) as { n: number }
    ).n;
  }

  private chunksByRowid(rowids: readonly number[]): Map<number, Chunk> {
    if (!rowids.length) return new Map();
    const rows = this.db
      .prepare(`SELECT * FROM chunks WHERE rowid IN (${rowids.map(() => '?').join(',')})`)
      .all(...rowids) as ChunkRow[];
    return new Map(rows.map((row) => [row.rowid, toChunk(row)]));
  }

  /** Indexes built before unit vectors keep their cosine vec0 table, searched as it is. */
  private isCosineTable(id: number): boolean {
    let cosine = this.cosineTables.get(id);
    if (cosine === undefined) {
      const row = this.db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(`vec_${id}`) as
        | { sql: string }
        | undefined;
      cosine = row?.sql.includes('distance_metric=cosine') ?? false;
      this.cosineTables.set(id, cosine);
    }
    return cosine;
  }

  async searchSemantic(collection: string, vector: Float32Array, limit: number): Promise<ScoredChunk[]> {
    const id = this.collectionId(collection);
    if (id === undefined) return [];
    const cosine = this.isCosineTable(id);
    const hits = this.db
      .prepare(`SELECT rowid, distance FROM vec_${id} WHERE embedding MATCH ? AND k = ? ORDER BY distance`)
      .all(cosine ? vector : unitVector(vector), limit) as { rowid: number; distance: number }[];
    const chunks = this.chunksByRowid(hits.map((hit) => hit.rowid));
    return hits.flatMap((hit) => {
      const chunk = chunks.get(hit.rowid);
      const score = cosine ? 1 - hit.distance : cosineOfUnitDistance(hit.distance);
      return chunk ? [{ chunk, score }] : [];
    });
  }

  async searchKeyword(collection: string, terms: readonly string[], limit: number): Promise<ScoredChunk[]> {
    const id = this.collectionId(collection);
    if (id === undefined || !terms.length) return [];
    const docs = this.db.prepare('SELECT doc FROM temp.chunks_fts_terms WHERE term = ?');
    const frequencies = terms.map((term) => ({
      term,
      docs: (docs.get(term) as { doc: number } | undefined)?.doc ?? 0,
    }));
    const rows = (this.db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
    const plan = keywordTerms(frequencies, rows);
    if (!plan.terms.length) return [];
    const search = this.db.prepare(
      `SELECT rowid, bm25(chunks_fts, ${BM25_WEIGHTS}) AS rank FROM chunks_fts
       WHERE chunks_fts MATCH ? AND collection_id = ? ORDER BY rank LIMIT ?`,
    );
    let hits = search.all(ftsQuery(plan.terms), id, limit) as { rowid: number; rank: number }[];
    if (!plan.complete && hits.length < limit) {
      // Fewer hits than asked: the chunks that match only common terms fill the rest, as before.
      const all = keywordTerms(frequencies, Number.POSITIVE_INFINITY).terms;
      hits = search.all(ftsQuery(all), id, limit) as { rowid: number; rank: number }[];
    }
    const chunks = this.chunksByRowid(hits.map((hit) => hit.rowid));
    // FTS5's bm25() is lower-is-better (negative): its negation is the score.
    return hits.flatMap((hit) => {
      const chunk = chunks.get(hit.rowid);
      return chunk ? [{ chunk, score: -hit.rank }] : [];
    });
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
