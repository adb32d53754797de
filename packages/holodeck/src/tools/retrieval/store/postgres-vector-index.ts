import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

/**
 * pgvector HNSW settings: the build parameters are pgvector's defaults (m 16, ef_construction 64);
 * ef_search, the candidate list a query keeps, is at least 100 and twice the results asked for
 * (pgvector's default of 40 caps a query at 40 results). docs/retrieval.md has what a real server
 * needs besides (maintenance_work_mem for the build).
 */
export const HNSW_M = 16;
export const HNSW_EF_CONSTRUCTION = 64;
export const hnswEfSearch = (limit: number) => Math.max(100, limit * 2);

/**
 * The HNSW index of one collection: a partial index (WHERE collection = …) over the embedding cast
 * to the collection's dimension, since the shared chunks table holds vectors of several sizes and
 * HNSW needs one. Its name is derived from the collection name (PostgreSQL names are ≤ 63 bytes).
 */
export function hnswIndexName(collection: string): string {
  return `holodeck_retrieval_hnsw_${createHash('sha256').update(collection).digest('hex').slice(0, 24)}`;
}

/** Whether the collection has its HNSW index. */
export async function hasHnswIndex(db: Kysely<unknown>, collection: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 FROM pg_indexes WHERE indexname = ${hnswIndexName(collection)}`.execute(
    db,
  );
  return rows.length > 0;
}

/** Builds the collection's HNSW index over its `dimensions`-size vectors (replacing any). */
export async function createHnswIndex(
  db: Kysely<unknown>,
  collection: string,
  dimensions: number,
): Promise<void> {
  const name = sql.id(hnswIndexName(collection));
  await sql`DROP INDEX IF EXISTS ${name}`.execute(db);
  await sql`CREATE INDEX ${name} ON holodeck_retrieval_chunks
    USING hnsw ((embedding::vector(${sql.raw(String(Math.trunc(dimensions)))})) vector_cosine_ops)
    WITH (m = ${sql.raw(String(HNSW_M))}, ef_construction = ${sql.raw(String(HNSW_EF_CONSTRUCTION))})
    WHERE collection = ${sql.lit(collection)}`.execute(db);
  // Fresh statistics, so the planner knows the collection is large enough for the index to pay
  // (before autovacuum's next ANALYZE it would still sort a full scan).
  await sql`ANALYZE holodeck_retrieval_chunks`.execute(db);
}

export async function dropHnswIndex(db: Kysely<unknown>, collection: string): Promise<void> {
  await sql`DROP INDEX IF EXISTS ${sql.id(hnswIndexName(collection))}`.execute(db);
}
