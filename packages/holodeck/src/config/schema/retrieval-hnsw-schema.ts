import { z } from 'zod';
import { addConfigIssue } from './add-config-issue.js';

// The `hnsw` block of a retrieval tool: the pgvector HNSW index of the PostgreSQL store
// (vector_index hnsw). Applied in src/tools/retrieval/store/postgres-vector-index.ts (m,
// ef_construction, at ingest) and postgres-retrieval-store.ts (ef_search, per query).

/**
 * Rows a hybrid search asks of each ranker before fusion: at least HYBRID_CANDIDATES, and 4 × top_k.
 * Here (not in tools/) because validation needs it: pgvector's HNSW returns at most ef_search rows.
 */
export const HYBRID_CANDIDATES = 50;
export const hybridCandidates = (topK: number) => Math.max(HYBRID_CANDIDATES, topK * 4);

/** pgvector's HNSW build defaults, which HoloDeck keeps unless `hnsw` says otherwise. */
export const HNSW_DEFAULT_M = 16;
export const HNSW_DEFAULT_EF_CONSTRUCTION = 64;

/** The pgvector HNSW index of a PostgreSQL tool (vector_index hnsw); ranges are pgvector's. */
export const HnswSchema = z
  .strictObject({
    m: z
      .int()
      .min(2)
      .max(100)
      .optional()
      .describe(
        'Links per node of the graph (2..100; default 16): more is better recall, a bigger and slower build.',
      ),
    ef_construction: z
      .int()
      .min(4)
      .max(1000)
      .optional()
      .describe(
        'Candidate list while building (at least 2 × m, up to 1000; default 64): more is better recall, a slower build.',
      ),
    ef_search: z
      .int()
      .min(1)
      .max(1000)
      .optional()
      .describe(
        'Candidate list of each query (1..1000, at least the rows a search asks for; default max(200, 2 × rows)): more is better recall, slower queries.',
      ),
  })
  .describe(
    'PostgreSQL vector_index hnsw: the pgvector index settings. Changing m or ef_construction rebuilds the index at the next ingest.',
  );

/** The fields of a retrieval tool the hnsw rules read. */
interface HnswFields {
  search_mode: 'semantic' | 'keyword' | 'hybrid';
  top_k: number;
  vector_index: 'auto' | 'exact' | 'quantized' | 'hnsw';
  hnsw?: z.infer<typeof HnswSchema> | undefined;
  database?: { provider: 'sqlite' | 'postgres' } | undefined;
}

/** hnsw settings need the HNSW index they tune, and pgvector's own limits between them. */
export function checkHnsw(tool: HnswFields, context: z.RefinementCtx) {
  const hnsw = tool.hnsw;
  if (!hnsw) return;
  const provider = tool.database?.provider ?? 'sqlite';
  if (provider === 'sqlite') {
    // vector_index hnsw on SQLite is refused by checkVectorIndex already, with the same fix.
    if (tool.vector_index !== 'hnsw') {
      addConfigIssue(
        context,
        ['hnsw'],
        'hnsw settings tune the pgvector HNSW index of the PostgreSQL store, and this tool uses the embedded SQLite index',
        'remove hnsw, or set database: {provider: postgres, connection_string: ...} and vector_index: hnsw',
      );
    }
    return;
  }
  if (tool.vector_index !== 'hnsw') {
    addConfigIssue(
      context,
      ['hnsw'],
      `hnsw settings apply to vector_index hnsw, and this tool uses vector_index ${tool.vector_index}`,
      tool.vector_index === 'auto'
        ? 'set vector_index: hnsw (auto searches small collections exactly, where these settings would do nothing), or remove hnsw'
        : 'set vector_index: hnsw, or remove hnsw',
    );
    return;
  }
  const m = hnsw.m ?? HNSW_DEFAULT_M;
  if (hnsw.ef_construction !== undefined && hnsw.ef_construction < 2 * m) {
    addConfigIssue(
      context,
      ['hnsw', 'ef_construction'],
      `hnsw.ef_construction (${hnsw.ef_construction}) must be at least 2 × m (${2 * m}${hnsw.m === undefined ? `, m defaults to ${HNSW_DEFAULT_M}` : ''}); pgvector refuses to build the index otherwise`,
      `raise ef_construction to ${2 * m} or more (default 64), or lower m`,
    );
  } else if (hnsw.ef_construction === undefined && 2 * m > HNSW_DEFAULT_EF_CONSTRUCTION) {
    addConfigIssue(
      context,
      ['hnsw', 'm'],
      `hnsw.m ${m} needs ef_construction of at least ${2 * m}, above its default ${HNSW_DEFAULT_EF_CONSTRUCTION}`,
      `set hnsw.ef_construction: ${2 * m} or more, or lower m to ${HNSW_DEFAULT_EF_CONSTRUCTION / 2} or less`,
    );
  }
  if (hnsw.ef_search !== undefined) {
    const rows = tool.search_mode === 'hybrid' ? hybridCandidates(tool.top_k) : tool.top_k;
    if (hnsw.ef_search < rows) {
      const asked =
        tool.search_mode === 'hybrid'
          ? `the ${rows} semantic candidates a hybrid search asks for (max(${HYBRID_CANDIDATES}, 4 × top_k))`
          : `the ${rows} results a search asks for (top_k)`;
      addConfigIssue(
        context,
        ['hnsw', 'ef_search'],
        `hnsw.ef_search (${hnsw.ef_search}) is below ${asked}; pgvector's HNSW returns at most ef_search rows, so searches would come back short`,
        `raise ef_search to ${rows} or more, or remove it (default max(200, 2 × rows))`,
      );
    }
  }
}
