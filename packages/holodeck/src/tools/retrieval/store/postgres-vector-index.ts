import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { HNSW_DEFAULT_EF_CONSTRUCTION, HNSW_DEFAULT_M } from '../../../config/index.js';
import type { HnswBuild } from './retrieval-store.js';

/**
 * pgvector HNSW settings: the build parameters default to pgvector's (m 16, ef_construction 64);
 * ef_search, the candidate list a query keeps, defaults to at least 200 and twice the results
 * asked for (pgvector's default of 40 caps a query at 40 results; at 100k × 384-d dense vectors
 * ef_search 100 found 0.945 of the exact top 10 and 200 found 0.981 at the same p50: bench/README.md). agent.yaml's `hnsw` block sets
 * all three. docs/retrieval.md has what a real server needs besides (maintenance_work_mem).
 */
export const DEFAULT_HNSW_BUILD: HnswBuild = {
  m: HNSW_DEFAULT_M,
  efConstruction: HNSW_DEFAULT_EF_CONSTRUCTION,
};
export const hnswEfSearch = (limit: number) => Math.max(200, limit * 2);

/**
 * The HNSW index of one collection: a partial index (WHERE collection = …) over the embedding cast
 * to the collection's dimension, since the shared chunks table holds vectors of several sizes and
 * HNSW needs one. Its name is derived from the collection name (PostgreSQL names are ≤ 63 bytes).
 */
export function hnswIndexName(collection: string): string {
  return `holodeck_retrieval_hnsw_${createHash('sha256').update(collection).digest('hex').slice(0, 24)}`;
}

/** The value of `name=value` in an index's reloptions, or `fallback` when it is not there. */
function option(reloptions: readonly string[], name: string, fallback: number): number {
  const entry = reloptions.find((item) => item.startsWith(`${name}=`));
  const value = entry === undefined ? Number.NaN : Number(entry.slice(name.length + 1));
  return Number.isInteger(value) ? value : fallback;
}

/**
 * The build parameters of the collection's HNSW index, read from the catalog (pg_class.reloptions,
 * pgvector's defaults for any it does not list), or undefined when the collection has none. The
 * name resolves on the search path, as CREATE INDEX and the search do.
 */
export async function hnswIndexBuild(
  db: Kysely<unknown>,
  collection: string,
): Promise<HnswBuild | undefined> {
  const { rows } = await sql<{ reloptions: string[] | null }>`SELECT c.reloptions FROM pg_class c
    WHERE c.oid = to_regclass(${hnswIndexName(collection)}) AND c.relkind = 'i'`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const reloptions = row.reloptions ?? [];
  return {
    m: option(reloptions, 'm', HNSW_DEFAULT_M),
    efConstruction: option(reloptions, 'ef_construction', HNSW_DEFAULT_EF_CONSTRUCTION),
  };
}

/** Why an index built with `present` must be built again for `wanted`, or undefined if it need not. */
export function hnswRebuildReason(present: HnswBuild, wanted: HnswBuild): string | undefined {
  const changes = [
    ...(present.m !== wanted.m ? [`m changed from ${present.m} to ${wanted.m}`] : []),
    ...(present.efConstruction !== wanted.efConstruction
      ? [`ef_construction changed from ${present.efConstruction} to ${wanted.efConstruction}`]
      : []),
  ];
  return changes.length ? changes.join(', ') : undefined;
}

/** Builds the collection's HNSW index over its `dimensions`-size vectors with `build` (replacing any). */
export async function createHnswIndex(
  db: Kysely<unknown>,
  collection: string,
  dimensions: number,
  build: HnswBuild,
): Promise<void> {
  const name = sql.id(hnswIndexName(collection));
  const integer = (value: number) => sql.raw(String(Math.trunc(value)));
  await sql`DROP INDEX IF EXISTS ${name}`.execute(db);
  await sql`CREATE INDEX ${name} ON holodeck_retrieval_chunks
    USING hnsw ((embedding::vector(${integer(dimensions)})) vector_cosine_ops)
    WITH (m = ${integer(build.m)}, ef_construction = ${integer(build.efConstruction)})
    WHERE collection = ${sql.lit(collection)}`.execute(db);
  // Fresh statistics, so the planner knows the collection is large enough for the index to pay
  // (before autovacuum's next ANALYZE it would still sort a full scan).
  await sql`ANALYZE holodeck_retrieval_chunks`.execute(db);
}

export async function dropHnswIndex(db: Kysely<unknown>, collection: string): Promise<void> {
  await sql`DROP INDEX IF EXISTS ${sql.id(hnswIndexName(collection))}`.execute(db);
}
