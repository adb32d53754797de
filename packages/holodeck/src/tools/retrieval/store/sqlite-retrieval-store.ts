import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { Chunk } from '../chunk/chunk.js';
import { withFileLock } from './file-lock.js';
import type {
  CollectionMeta,
  EmbeddedChunk,
  RetrievalStore,
  ScoredChunk,
  Stemming,
  VectorIndex,
  VectorIndexInUse,
} from './retrieval-store.js';
import { vectorIndexFor } from './retrieval-store.js';
import { SqliteKeywordIndex } from './sqlite-keyword-index.js';
import { SqliteQuantizedVectors } from './sqlite-quantized-vectors.js';
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
`;

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

/**
 * The embedded index: one SQLite file (WAL) per agent with better-sqlite3, vectors in a
 * sqlite-vec `vec0` table per collection (unit vectors under L2, the collection's own dimension),
 * keywords in an FTS5 table per collection (BM25 over that tool's chunks only; sqlite-keyword-index.ts).
 * Ingests are serialised by a lock file next to it.
 */
export class SqliteRetrievalStore implements RetrievalStore {
  readonly location: string;
  private readonly db: Database.Database;
  /** Whether a collection's vec0 table is of an older index (cosine over raw vectors), by id. */
  private readonly cosineTables = new Map<number, boolean>();
  private readonly keywords: SqliteKeywordIndex;
  private readonly quantized: SqliteQuantizedVectors;

  constructor(file: string) {
    this.location = file;
    mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 10000');
    sqliteVec.load(this.db);
    this.db.pragma('temp_store = MEMORY');
    this.db.exec(SCHEMA);
    const columns = this.db.prepare('PRAGMA table_info(collections)').all() as { name: string }[];
    if (!columns.some((column) => column.name === 'stemming'))
      this.db.exec("ALTER TABLE collections ADD COLUMN stemming TEXT NOT NULL DEFAULT 'none'");
    this.keywords = new SqliteKeywordIndex(this.db);
    this.quantized = new SqliteQuantizedVectors(this.db);
  }

  private stemmingOf(id: number): Stemming {
    const row = this.db.prepare('SELECT stemming FROM collections WHERE id = ?').get(id) as
      | { stemming: string }
      | undefined;
    return row?.stemming === 'english' ? 'english' : 'none';
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
    const row = this.db
      .prepare('SELECT model, dimensions, stemming FROM collections WHERE name = ?')
      .get(collection) as { model: string; dimensions: number; stemming: string } | undefined;
    return row
      ? {
          model: row.model,
          dimensions: row.dimensions,
          stemming: row.stemming === 'english' ? 'english' : 'none',
        }
      : undefined;
  }

  async setStemming(collection: string, stemming: Stemming): Promise<void> {
    const id = this.requireCollection(collection);
    this.db.transaction(() => {
      this.db.prepare('UPDATE collections SET stemming = ? WHERE id = ?').run(stemming, id);
      this.keywords.rebuild(id, stemming);
    })();
  }

  async resetCollection(collection: string, meta: CollectionMeta): Promise<void> {
    this.db.transaction(() => {
      const id = this.collectionId(collection);
      const stemming = meta.stemming ?? 'none';
      if (id !== undefined) {
        const legacy = this.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'chunks_fts'").get();
        if (legacy)
          this.db
            .prepare(
              'DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks WHERE collection_id = ?)',
            )
            .run(id);
        this.db.prepare('DELETE FROM chunks WHERE collection_id = ?').run(id);
        this.db.prepare('DELETE FROM files WHERE collection_id = ?').run(id);
        this.db.exec(`DROP TABLE IF EXISTS vec_${id}`);
        this.quantized.drop(id);
        this.keywords.drop(id);
        this.db
          .prepare('UPDATE collections SET model = ?, dimensions = ?, stemming = ? WHERE id = ?')
          .run(meta.model, meta.dimensions, stemming, id);
      } else {
        this.db
          .prepare('INSERT INTO collections (name, model, dimensions, stemming) VALUES (?, ?, ?, ?)')
          .run(collection, meta.model, meta.dimensions, stemming);
      }
      const created = this.requireCollection(collection);
      this.keywords.create(created, stemming);
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
    this.keywords.ensure(id, this.stemmingOf(id));
    for (const rowid of rowids) {
      deleteVector.run(rowid);
      this.quantized.delete(id, rowid);
      this.keywords.delete(id, rowid);
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
    this.db.transaction(() => {
      this.quantized.forget(id);
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
        this.quantized.insert(id, rowid, chunk.embedding);
        this.keywords.insert(id, rowid, chunk);
      }
      this.db
        .prepare('INSERT INTO files (collection_id, source, hash) VALUES (?, ?, ?)')
        .run(id, source, hash);
    })();
  }

  async deleteFile(collection: string, source: string): Promise<void> {
    const id = this.collectionId(collection);
    if (id === undefined) return;
    this.db.transaction(() => {
      this.quantized.forget(id);
      this.removeFile(id, source);
    })();
  }

  async prepareVectorIndex(collection: string, setting: VectorIndex): Promise<VectorIndexInUse> {
    if (setting === 'hnsw')
      throw new Error(
        'vector_index hnsw needs the PostgreSQL index; the embedded index offers exact and quantized',
      );
    const id = this.collectionId(collection);
    if (id === undefined) return vectorIndexFor(setting, 0, 'quantized');
    const wanted = vectorIndexFor(setting, await this.countChunks(collection), 'quantized');
    this.db.transaction(() => {
      this.quantized.forget(id);
      const present = this.quantized.exists(id);
      if (wanted === 'quantized' && !present) {
        const { dimensions } = this.db.prepare('SELECT dimensions FROM collections WHERE id = ?').get(id) as {
          dimensions: number;
        };
        const reader = new Database(this.location, { readonly: true });
        try {
          sqliteVec.load(reader);
          this.quantized.build(id, dimensions, `vec_${id}`, reader);
        } finally {
          reader.close();
        }
      } else if (wanted === 'exact' && present) this.quantized.drop(id);
    })();
    return wanted;
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
    this.quantized.forget(id);
    if (this.quantized.exists(id)) {
      const found = this.quantized.search(id, vector, limit);
      const chunks = this.chunksByRowid(found.map((hit) => hit.rowid));
      return found.flatMap((hit) => {
        const chunk = chunks.get(hit.rowid);
        return chunk ? [{ chunk, score: hit.score }] : [];
      });
    }
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
    const hits = this.keywords.search(id, this.stemmingOf(id), terms, limit);
    const chunks = this.chunksByRowid(hits.map((hit) => hit.rowid));
    return hits.flatMap((hit) => {
      const chunk = chunks.get(hit.rowid);
      return chunk ? [{ chunk, score: hit.score }] : [];
    });
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
