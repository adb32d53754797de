import { type Kysely, sql } from 'kysely';
import type { Chunk } from '../chunk/chunk.js';
import { withPostgresIngestLock } from './postgres-ingest-lock.js';
import {
  addSourceKeywordStats,
  indexChunkKeywords,
  KEYWORD_SCHEMA,
  keywordStateOf,
  rebuildKeywordIndex,
  removeSourceKeywordStats,
  resetKeywordStats,
  searchKeywordIndex,
} from './postgres-keyword-index.js';
import {
  createHnswIndex,
  DEFAULT_HNSW_BUILD,
  dropHnswIndex,
  hnswEfSearch,
  hnswIndexBuild,
  hnswIndexName,
  hnswRebuildReason,
} from './postgres-vector-index.js';
import type {
  CollectionMeta,
  EmbeddedChunk,
  RetrievalStore,
  ScoredChunk,
  SemanticSearchOptions,
  Stemming,
  VectorIndex,
  VectorIndexInUse,
  VectorIndexOptions,
} from './retrieval-store.js';
import { vectorIndexFor } from './retrieval-store.js';

interface ChunkRow {
  source: string;
  chunk_id: string;
  title: string;
  heading_path: string[] | string;
  section_id: string | null;
  page: number | null;
  text: string;
  metadata: Record<string, string> | string;
  score: number | string;
}

/** The tables live beside other applications' tables: every name is prefixed. */
const SCHEMA = [
  sql`CREATE EXTENSION IF NOT EXISTS vector`,
  sql`CREATE TABLE IF NOT EXISTS holodeck_retrieval_collections (
    name TEXT PRIMARY KEY, model TEXT NOT NULL, dimensions INTEGER NOT NULL)`,
  sql`CREATE TABLE IF NOT EXISTS holodeck_retrieval_files (
    collection TEXT NOT NULL, source TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (collection, source))`,
  sql`CREATE TABLE IF NOT EXISTS holodeck_retrieval_chunks (
    id BIGSERIAL PRIMARY KEY, collection TEXT NOT NULL, source TEXT NOT NULL, chunk_id TEXT NOT NULL,
    title TEXT NOT NULL, heading_path JSONB NOT NULL, section_id TEXT, page INTEGER, text TEXT NOT NULL,
    metadata JSONB NOT NULL, embedding vector NOT NULL, search TSVECTOR)`,
  sql`CREATE INDEX IF NOT EXISTS holodeck_retrieval_chunks_by_source ON holodeck_retrieval_chunks (collection, source)`,
  ...KEYWORD_SCHEMA,
];

function parsed<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

function toChunk(row: ChunkRow): Chunk {
  return {
    id: row.chunk_id,
    source: row.source,
    title: row.title,
    headingPath: parsed(row.heading_path),
    ...(row.section_id !== null ? { sectionId: row.section_id } : {}),
    ...(row.page !== null ? { page: row.page } : {}),
    text: row.text,
    metadata: parsed(row.metadata),
  };
}

const vectorLiteral = (vector: Float32Array) => `[${Array.from(vector).join(',')}]`;

/**
 * The PostgreSQL index through kysely: vectors in a pgvector column (cosine distance `<=>`),
 * keywords ranked by BM25 from per-collection statistics kept at ingest (postgres-keyword-index.ts:
 * the formula of the embedded index's FTS5, over the words of the `simple` or `english` text search
 * configuration). Ingests are serialised per collection by a
 * session advisory lock (postgres-ingest-lock.ts), so processes on several machines can share one
 * index.
 */
export class PostgresRetrievalStore implements RetrievalStore {
  private constructor(
    private readonly db: Kysely<unknown>,
    readonly location: string,
  ) {}

  /** Creates the tables (and the vector extension) if needed. */
  static async open(db: Kysely<unknown>, location: string): Promise<PostgresRetrievalStore> {
    for (const statement of SCHEMA) await statement.execute(db);
    return new PostgresRetrievalStore(db, location);
  }

  withIngestLock<T>(
    collection: string,
    onWait: (message: string) => void,
    work: () => Promise<T>,
  ): Promise<T> {
    return withPostgresIngestLock(this.db, this.location, collection, onWait, work);
  }

  async getMeta(collection: string): Promise<CollectionMeta | undefined> {
    const { rows } = await sql<{
      model: string;
      dimensions: number;
      stemming: string;
    }>`SELECT model, dimensions, stemming FROM holodeck_retrieval_collections WHERE name = ${collection}`.execute(
      this.db,
    );
    const row = rows[0];
    return row
      ? {
          model: row.model,
          dimensions: Number(row.dimensions),
          stemming: row.stemming === 'english' ? 'english' : 'none',
        }
      : undefined;
  }

  async setStemming(collection: string, stemming: Stemming): Promise<void> {
    await this.db.transaction().execute((trx) => rebuildKeywordIndex(trx, collection, stemming));
  }

  /**
   * The collection's stemming, its keyword index rebuilt first if an older version wrote the
   * collection (no BM25 statistics yet): in a transaction holding the collection's row, so two
   * processes do not rebuild it at once.
   */
  private async keywordStemming(db: Kysely<unknown>, collection: string): Promise<Stemming | undefined> {
    const state = await keywordStateOf(db, collection);
    if (!state || state.current) return state?.stemming;
    const rebuild = async (trx: Kysely<unknown>) => {
      await sql`SELECT 1 FROM holodeck_retrieval_collections WHERE name = ${collection} FOR UPDATE`.execute(
        trx,
      );
      const again = await keywordStateOf(trx, collection);
      if (again && !again.current) await rebuildKeywordIndex(trx, collection, again.stemming);
    };
    if (db.isTransaction) await rebuild(db);
    else await db.transaction().execute(rebuild);
    return state.stemming;
  }

  async resetCollection(collection: string, meta: CollectionMeta): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await sql`DELETE FROM holodeck_retrieval_chunks WHERE collection = ${collection}`.execute(trx);
      await sql`DELETE FROM holodeck_retrieval_files WHERE collection = ${collection}`.execute(trx);
      await sql`INSERT INTO holodeck_retrieval_collections (name, model, dimensions, stemming)
        VALUES (${collection}, ${meta.model}, ${meta.dimensions}, ${meta.stemming ?? 'none'})
        ON CONFLICT (name) DO UPDATE SET model = EXCLUDED.model, dimensions = EXCLUDED.dimensions,
          stemming = EXCLUDED.stemming`.execute(trx);
      await resetKeywordStats(trx, collection);
      // The dimension may have changed: the HNSW index is built again by prepareVectorIndex.
      await dropHnswIndex(trx, collection);
    });
  }

  /**
   * Builds the HNSW index when the collection needs one and has none, or has one built with other
   * parameters (told to `onRebuild` first: a build reads every vector of the collection).
   */
  async prepareVectorIndex(
    collection: string,
    setting: VectorIndex,
    options: VectorIndexOptions = {},
  ): Promise<VectorIndexInUse> {
    if (setting === 'quantized')
      throw new Error('vector_index quantized is for the embedded index; PostgreSQL offers exact and hnsw');
    const meta = await this.getMeta(collection);
    const wanted = vectorIndexFor(setting, meta ? await this.countChunks(collection) : 0, 'hnsw');
    if (!meta) return wanted;
    const present = await hnswIndexBuild(this.db, collection);
    const build = options.hnsw ?? DEFAULT_HNSW_BUILD;
    if (wanted === 'hnsw') {
      const reason = present && hnswRebuildReason(present, build);
      if (reason) options.onRebuild?.(reason);
      if (!present || reason) await createHnswIndex(this.db, collection, meta.dimensions, build);
    } else if (present) await dropHnswIndex(this.db, collection);
    return wanted;
  }

  async listFiles(collection: string): Promise<Map<string, string>> {
    const { rows } = await sql<{
      source: string;
      hash: string;
    }>`SELECT source, hash FROM holodeck_retrieval_files WHERE collection = ${collection}`.execute(this.db);
    return new Map(rows.map((row) => [row.source, row.hash]));
  }

  async putFile(
    collection: string,
    source: string,
    hash: string,
    chunks: readonly EmbeddedChunk[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const stemming = (await this.keywordStemming(trx, collection)) ?? 'none';
      await removeSourceKeywordStats(trx, collection, source);
      await sql`DELETE FROM holodeck_retrieval_chunks WHERE collection = ${collection} AND source = ${source}`.execute(
        trx,
      );
      for (const chunk of chunks) {
        const { rows } = await sql<{ id: string }>`INSERT INTO holodeck_retrieval_chunks
          (collection, source, chunk_id, title, heading_path, section_id, page, text, metadata, embedding)
          VALUES (${collection}, ${source}, ${chunk.id}, ${chunk.title}, ${JSON.stringify(chunk.headingPath)}::jsonb,
            ${chunk.sectionId ?? null}, ${chunk.page ?? null}, ${chunk.text}, ${JSON.stringify(chunk.metadata)}::jsonb,
            ${vectorLiteral(chunk.embedding)}::vector) RETURNING id`.execute(trx);
        const id = rows[0]?.id;
        if (id !== undefined) await indexChunkKeywords(trx, collection, id, chunk, stemming);
      }
      await addSourceKeywordStats(trx, collection, source);
      await sql`INSERT INTO holodeck_retrieval_files (collection, source, hash) VALUES (${collection}, ${source}, ${hash})
        ON CONFLICT (collection, source) DO UPDATE SET hash = EXCLUDED.hash`.execute(trx);
    });
  }

  async deleteFile(collection: string, source: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.keywordStemming(trx, collection);
      await removeSourceKeywordStats(trx, collection, source);
      await sql`DELETE FROM holodeck_retrieval_chunks WHERE collection = ${collection} AND source = ${source}`.execute(
        trx,
      );
      await sql`DELETE FROM holodeck_retrieval_files WHERE collection = ${collection} AND source = ${source}`.execute(
        trx,
      );
    });
  }

  async countChunks(collection: string): Promise<number> {
    const { rows } = await sql<{
      n: number | string;
    }>`SELECT count(*) AS n FROM holodeck_retrieval_chunks WHERE collection = ${collection}`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  async searchSemantic(
    collection: string,
    vector: Float32Array,
    limit: number,
    options: SemanticSearchOptions = {},
  ): Promise<ScoredChunk[]> {
    const literal = vectorLiteral(vector);
    const columns = sql`source, chunk_id, title, heading_path, section_id, page, text, metadata`;
    // With the collection's HNSW index: the query names the index's expression (the cast to its
    // dimension) so the planner walks the graph, with ef_search set for this transaction only
    // (set_config's is_local: SET LOCAL), so a pooled connection keeps no tool's setting.
    // to_regclass, not the pg_indexes view: a catalog lookup by name (pg_indexes cost 14 ms a query on PGlite).
    const { rows: indexed } = await sql<{ dimensions: number }>`SELECT c.dimensions FROM
      holodeck_retrieval_collections c WHERE c.name = ${collection}
      AND to_regclass(${hnswIndexName(collection)}) IS NOT NULL`.execute(this.db);
    const dimensions = indexed[0]?.dimensions;
    if (dimensions !== undefined) {
      const cast = sql.raw(`vector(${Math.trunc(Number(dimensions))})`);
      const rows = await this.db.transaction().execute(async (trx) => {
        await sql`SELECT set_config('hnsw.ef_search', ${String(options.efSearch ?? hnswEfSearch(limit))}, true)`.execute(
          trx,
        );
        return (
          await sql<ChunkRow>`SELECT ${columns}, 1 - (embedding::${cast} <=> ${literal}::${cast}) AS score
          FROM holodeck_retrieval_chunks WHERE collection = ${collection}
          ORDER BY embedding::${cast} <=> ${literal}::${cast} LIMIT ${limit}`.execute(trx)
        ).rows;
      });
      return rows.map((row) => ({ chunk: toChunk(row), score: Number(row.score) }));
    }
    const { rows } = await sql<ChunkRow>`SELECT ${columns}, 1 - (embedding <=> ${literal}::vector) AS score
      FROM holodeck_retrieval_chunks WHERE collection = ${collection}
      ORDER BY embedding <=> ${literal}::vector, id LIMIT ${limit}`.execute(this.db);
    return rows.map((row) => ({ chunk: toChunk(row), score: Number(row.score) }));
  }

  async searchKeyword(collection: string, terms: readonly string[], limit: number): Promise<ScoredChunk[]> {
    if (!terms.length) return [];
    const stemming = await this.keywordStemming(this.db, collection);
    if (stemming === undefined) return [];
    const hits = await searchKeywordIndex(this.db, collection, stemming, terms, limit);
    if (!hits.length) return [];
    const { rows } = await sql<
      ChunkRow & { id: string }
    >`SELECT id, source, chunk_id, title, heading_path, section_id,
        page, text, metadata, 0 AS score
      FROM holodeck_retrieval_chunks WHERE id = ANY(${hits.map((hit) => hit.id)}::bigint[])`.execute(this.db);
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    return hits.flatMap((hit) => {
      const row = byId.get(hit.id);
      return row ? [{ chunk: toChunk(row), score: hit.score }] : [];
    });
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
