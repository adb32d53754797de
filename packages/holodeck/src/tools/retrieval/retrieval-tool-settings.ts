import { HNSW_DEFAULT_EF_CONSTRUCTION, HNSW_DEFAULT_M } from '../../config/index.js';
import type { Chunk } from './chunk/chunk.js';
import { chunkBySections } from './chunk/chunk-by-sections.js';
import { chunkByTokens } from './chunk/chunk-by-tokens.js';
import { TOKENIZER_NAME } from './chunk/tokenizer.js';
import type { ParsedSource } from './parse/parsed-source.js';
import type { RecordFields } from './parse/record-fields.js';
import type { RetrievalToolConfig } from './retrieval-tool-entries.js';
import type { SearchSettings } from './search/search-index.js';
import type { HnswBuild } from './store/retrieval-store.js';

export type { RetrievalToolConfig, RetrievalToolEntry } from './retrieval-tool-entries.js';
export { searchToolName } from './retrieval-tool-entries.js';

/**
 * Default keyword weight of each fusion, chosen by bench/retrieval-quality.mjs on both the real
 * model and the hashed vectors (bench/README.md): with normalized fusion, hybrid is no worse than
 * the better single mode on every row at keyword 3 to 6 : semantic 1; 4 is the middle of that
 * range, where the figures also hold at every candidate depth from 10 to 50. rrf keeps its equal
 * weights.
 */
const DEFAULT_KEYWORD_WEIGHT = { normalized: 4, rrf: 1 } as const;

/** How the tool searches, defaults applied (fusion normalized unless rrf_k is set, semantic weight 1, rrf_k 60). */
export function searchSettingsOf(config: RetrievalToolConfig): SearchSettings {
  // An rrf_k without a fusion asks for reciprocal rank fusion (the only fusion it applies to).
  const fusion = config.fusion ?? (config.rrf_k !== undefined ? 'rrf' : 'normalized');
  return {
    mode: config.search_mode,
    topK: config.top_k,
    ...(config.min_score !== undefined ? { minScore: config.min_score } : {}),
    fusion,
    rrfK: config.rrf_k ?? 60,
    semanticWeight: config.semantic_weight ?? 1,
    keywordWeight: config.keyword_weight ?? DEFAULT_KEYWORD_WEIGHT[fusion],
    ...(config.hnsw?.ef_search !== undefined ? { efSearch: config.hnsw.ef_search } : {}),
  };
}

/** The HNSW build parameters of a tool's `hnsw` block, pgvector's defaults for the ones it leaves out. */
export function hnswBuildOf(hnsw: NonNullable<RetrievalToolConfig['hnsw']>): HnswBuild {
  return {
    m: hnsw.m ?? HNSW_DEFAULT_M,
    efConstruction: hnsw.ef_construction ?? HNSW_DEFAULT_EF_CONSTRUCTION,
  };
}

/** The record settings of a vectorstore (a hierarchical_document embeds every field of a record). */
export function recordFieldsOf(config: RetrievalToolConfig): RecordFields {
  if (config.type !== 'vectorstore') return { metaFields: [] };
  const vector = config.vector_field;
  return {
    ...(vector !== undefined ? { vectorFields: typeof vector === 'string' ? [vector] : vector } : {}),
    ...(config.id_field !== undefined ? { idField: config.id_field } : {}),
    metaFields: config.meta_fields ?? [],
    ...(config.record_path !== undefined ? { recordPath: config.record_path } : {}),
  };
}

/** The tool's chunker. */
export function chunkerOf(config: RetrievalToolConfig): (source: string, parsed: ParsedSource) => Chunk[] {
  return config.type === 'vectorstore'
    ? (source, parsed) =>
        chunkByTokens(source, parsed, { chunkSize: config.chunk_size, chunkOverlap: config.chunk_overlap })
    : (source, parsed) =>
        chunkBySections(source, parsed, {
          maxChunkTokens: config.max_chunk_tokens,
          chunkOverlap: config.chunk_overlap,
        });
}

/**
 * Everything besides a file's bytes that decides its chunks: part of its content hash, so a
 * changed chunk size or record field re-chunks the files it affects.
 */
export function chunkingSignature(config: RetrievalToolConfig): string {
  const chunking =
    config.type === 'vectorstore'
      ? { size: config.chunk_size, overlap: config.chunk_overlap }
      : { max: config.max_chunk_tokens, overlap: config.chunk_overlap };
  return JSON.stringify({
    v: 1,
    type: config.type,
    tokenizer: TOKENIZER_NAME,
    chunking,
    records: recordFieldsOf(config),
  });
}
