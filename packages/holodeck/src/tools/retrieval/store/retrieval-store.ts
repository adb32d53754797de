import type { Chunk } from '../chunk/chunk.js';

/** A chunk with its embedding, as it is written to an index. */
export interface EmbeddedChunk extends Chunk {
  embedding: Float32Array;
}

/** How keyword search folds words: `english` stems them (FTS5 porter, PostgreSQL's english configuration). */
export type Stemming = 'none' | 'english';

/**
 * What an index was built with: a changed model or dimension means every chunk is embedded
 * again; a changed `stemming` rebuilds the keyword index only (setStemming).
 */
export interface CollectionMeta {
  model: string;
  dimensions: number;
  /** Keyword tokenizer of the collection; `none` when absent (indexes of older versions). */
  stemming?: Stemming;
}

/**
 * How a collection's dense vectors are searched (`vector_index` in agent.yaml): `exact` scans every
 * vector; `quantized` (embedded index) scans 1-bit vectors and rescores the best candidates
 * exactly; `hnsw` (PostgreSQL) walks a pgvector HNSW graph; `auto` is exact below
 * AUTO_INDEX_FROM_CHUNKS chunks, and the store's index (quantized, hnsw) from there.
 */
export type VectorIndex = 'auto' | 'exact' | 'quantized' | 'hnsw';

/** The index a collection's semantic search uses after prepareVectorIndex. */
export type VectorIndexInUse = Exclude<VectorIndex, 'auto'>;

/**
 * Chunks from which `vector_index: auto` leaves the exact scan: below it an exact scan of 1536-d
 * vectors takes a few milliseconds and is exact; above it, it grows past the 20 ms target
 * (docs/retrieval.md, "Choosing vector_index").
 */
export const AUTO_INDEX_FROM_CHUNKS = 10_000;

/** The index `setting` means for a collection of `chunks` chunks on a store whose index is `approximate`. */
export function vectorIndexFor(
  setting: VectorIndex,
  chunks: number,
  approximate: 'quantized' | 'hnsw',
): VectorIndexInUse {
  if (setting !== 'auto') return setting;
  return chunks >= AUTO_INDEX_FROM_CHUNKS ? approximate : 'exact';
}

/** The build parameters of a pgvector HNSW index (agent.yaml `hnsw.m`, `hnsw.ef_construction`). */
export interface HnswBuild {
  m: number;
  efConstruction: number;
}

/** What prepareVectorIndex builds with, besides the setting. */
export interface VectorIndexOptions {
  /** hnsw (PostgreSQL): the build parameters; pgvector's defaults (m 16, ef_construction 64) when absent. */
  hnsw?: HnswBuild;
  /** Told, before the build, why an existing index is built again (its parameters changed). */
  onRebuild?: (reason: string) => void;
}

/** How one semantic search runs, besides its vector and limit. */
export interface SemanticSearchOptions {
  /**
   * hnsw (PostgreSQL): the query's candidate list (agent.yaml `hnsw.ef_search`), which also caps
   * the rows returned; default max(200, 2 × limit). Ignored by an exact scan.
   */
  efSearch?: number;
}

/** A search hit: the chunk and its score (cosine similarity, or the keyword rank score). */
export interface ScoredChunk {
  chunk: Chunk;
  score: number;
}

/**
 * An index of retrieval tools. Each tool has a collection (named after the tool) holding its
 * files (with their content hash) and chunks (with their vectors and keyword index). Both
 * implementations (embedded SQLite, PostgreSQL) pass test/unit/tools/retrieval/store-conformance.ts.
 */
export interface RetrievalStore {
  /** Where the index is, for messages (a file path, or host/database without credentials). */
  readonly location: string;
  /**
   * Runs `work` holding the collection's ingest lock, so two processes never ingest the same
   * collection at once; `onWait` is told once when another holder makes this one wait.
   */
  withIngestLock<T>(
    collection: string,
    onWait: (message: string) => void,
    work: () => Promise<T>,
  ): Promise<T>;
  /** The model and vector size the collection was built with; undefined when it is new. */
  getMeta(collection: string): Promise<CollectionMeta | undefined>;
  /** Empties the collection (files, chunks, vectors) and records what it is built with now. */
  resetCollection(collection: string, meta: CollectionMeta): Promise<void>;
  /** Rebuilds the collection's keyword index with another stemming, from its stored chunks (no re-embedding). */
  setStemming(collection: string, stemming: Stemming): Promise<void>;
  /** Indexed files of the collection: source → content hash. */
  listFiles(collection: string): Promise<Map<string, string>>;
  /** Replaces one file's chunks and hash, in one transaction. */
  putFile(collection: string, source: string, hash: string, chunks: readonly EmbeddedChunk[]): Promise<void>;
  /** Removes one file and its chunks. */
  deleteFile(collection: string, source: string): Promise<void>;
  /** Chunks in the collection. */
  countChunks(collection: string): Promise<number>;
  /**
   * Builds (or drops) the structures `setting` needs for the collection's semantic search, from
   * its stored vectors; ingest calls it last, under the ingest lock. Returns the index in use.
   * A setting the store cannot serve (hnsw on SQLite, quantized on PostgreSQL) throws; agent.yaml
   * validation refuses it first.
   */
  prepareVectorIndex(
    collection: string,
    setting: VectorIndex,
    options?: VectorIndexOptions,
  ): Promise<VectorIndexInUse>;
  /** The `limit` chunks nearest `vector` by cosine; score = cosine similarity (1 = same direction). */
  searchSemantic(
    collection: string,
    vector: Float32Array,
    limit: number,
    options?: SemanticSearchOptions,
  ): Promise<ScoredChunk[]>;
  /**
   * The `limit` best BM25 matches of any of `terms` (lower-case words), with statistics of this
   * collection only (chunk count, document frequencies, average length); title (×3) and heading
   * path (×2) weigh more than the text. Higher score = better; scores compare within one search only.
   */
  searchKeyword(collection: string, terms: readonly string[], limit: number): Promise<ScoredChunk[]>;
  close(): Promise<void>;
}

/** The lower-case words of a query, as both stores match them. */
export function queryTerms(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
}
