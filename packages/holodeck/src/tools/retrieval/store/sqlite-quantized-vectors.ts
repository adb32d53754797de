import type Database from 'better-sqlite3';
import { cosineOfUnitDistance, unitVector } from './unit-vector.js';

/**
 * Candidates the binary scan keeps per result before exact rescoring: 200 at least, 8 per result
 * above that. Measured on clustered 1536-d unit vectors (test/unit/tools/retrieval/
 * sqlite-quantized-recall.test.ts and bench/retrieval-ann.mjs): recall@10 ≥ 0.95 against exact.
 */
export function quantizedCandidates(limit: number): number {
  return Math.max(200, limit * 8);
}

/**
 * The quantized vectors of one SQLite collection: a sqlite-vec `bit[D]` table (the sign of each
 * dimension of the unit vector, 1/32 of the float size, scanned by Hamming distance) and the unit
 * vectors themselves in a plain table keyed by rowid, for rescoring the candidates exactly (a point
 * read of a vec0 table costs ~0.2 ms, of a plain table microseconds). Both tables exist only while
 * the collection uses `vector_index` quantized; they are written in the same transactions as the
 * chunks, so a crash leaves them in step with the rest of the index.
 */
export class SqliteQuantizedVectors {
  private readonly present = new Map<number, boolean>();
  /** Prepared statements by SQL text (an ingest writes thousands of rows with the same few). */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  private statement(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  private bits = (id: number) => `vecbits_${id}`;
  private floats = (id: number) => `vecunit_${id}`;

  /** Whether collection `id` has its quantized tables (cached; built and dropped only here). */
  exists(id: number): boolean {
    let present = this.present.get(id);
    if (present === undefined) {
      present =
        this.db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(this.bits(id)) !== undefined;
      this.present.set(id, present);
    }
    return present;
  }

  /** Forgets what is cached about `id` (another connection may have built or dropped the tables). */
  forget(id: number): void {
    this.present.delete(id);
  }

  /**
   * Creates and fills the tables from the collection's vec0 table, read through `reader` (another
   * connection to the same file: better-sqlite3 cannot write while one of its queries is open, and
   * reading all vectors at once would hold them all in memory). Call inside a transaction.
   */
  build(id: number, dimensions: number, vecTable: string, reader: Database.Database): void {
    this.drop(id);
    this.db.exec(`CREATE VIRTUAL TABLE ${this.bits(id)} USING vec0(embedding bit[${dimensions}])`);
    this.db.exec(`CREATE TABLE ${this.floats(id)} (rowid INTEGER PRIMARY KEY, embedding BLOB NOT NULL)`);
    this.present.set(id, true);
    const rows = reader.prepare(`SELECT rowid, embedding FROM ${vecTable}`).iterate() as Iterable<{
      rowid: number;
      embedding: Buffer;
    }>;
    for (const row of rows) {
      const vector = new Float32Array(
        row.embedding.buffer,
        row.embedding.byteOffset,
        row.embedding.byteLength / 4,
      );
      this.insert(id, BigInt(row.rowid), vector);
    }
  }

  drop(id: number): void {
    this.statements.clear();
    this.db.exec(`DROP TABLE IF EXISTS ${this.bits(id)}`);
    this.db.exec(`DROP TABLE IF EXISTS ${this.floats(id)}`);
    this.present.set(id, false);
  }

  /** Adds one vector (any length: it is made a unit vector here), if the collection is quantized. */
  insert(id: number, rowid: bigint, vector: Float32Array): void {
    if (!this.exists(id)) return;
    const unit = unitVector(vector);
    this.statement(`INSERT INTO ${this.bits(id)} (rowid, embedding) VALUES (?, vec_quantize_binary(?))`).run(
      rowid,
      unit,
    );
    this.statement(`INSERT INTO ${this.floats(id)} (rowid, embedding) VALUES (?, ?)`).run(
      rowid,
      Buffer.from(unit.buffer, unit.byteOffset, unit.byteLength),
    );
  }

  delete(id: number, rowid: bigint): void {
    if (!this.exists(id)) return;
    this.statement(`DELETE FROM ${this.bits(id)} WHERE rowid = ?`).run(rowid);
    this.statement(`DELETE FROM ${this.floats(id)} WHERE rowid = ?`).run(rowid);
  }

  /**
   * The `limit` nearest unit vectors to `vector` by cosine: the binary scan's
   * quantizedCandidates(limit) by Hamming distance, rescored with the exact Euclidean distance.
   */
  search(id: number, vector: Float32Array, limit: number): { rowid: number; score: number }[] {
    const unit = unitVector(vector);
    const candidates = this.db
      .prepare(
        `SELECT rowid FROM ${this.bits(id)} WHERE embedding MATCH vec_quantize_binary(?) AND k = ? ORDER BY distance`,
      )
      .all(unit, quantizedCandidates(limit)) as { rowid: number }[];
    if (!candidates.length) return [];
    const rescored = this.db
      .prepare(
        `SELECT rowid, vec_distance_l2(embedding, ?) AS distance FROM ${this.floats(id)}
         WHERE rowid IN (${candidates.map(() => '?').join(',')}) ORDER BY distance, rowid LIMIT ?`,
      )
      .all(unit, ...candidates.map((row) => row.rowid), limit) as { rowid: number; distance: number }[];
    return rescored.map((row) => ({ rowid: row.rowid, score: cosineOfUnitDistance(row.distance) }));
  }
}
