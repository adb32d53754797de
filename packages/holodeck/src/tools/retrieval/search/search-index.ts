import { hybridCandidates } from '../../../config/index.js';
import { queryTerms, type RetrievalStore, type ScoredChunk } from '../store/retrieval-store.js';
import { fuseRankings, fuseScores } from './fuse-rankings.js';

/** How one retrieval tool searches (from its agent.yaml fields, defaults applied). */
export interface SearchSettings {
  mode: 'semantic' | 'keyword' | 'hybrid';
  topK: number;
  /** Lowest cosine similarity of a semantic match (semantic and hybrid modes). */
  minScore?: number;
  /** How hybrid mode merges its two lists: reciprocal rank fusion, or min-max normalised scores. */
  fusion: 'rrf' | 'normalized';
  rrfK: number;
  semanticWeight: number;
  keywordWeight: number;
  /** PostgreSQL vector_index hnsw: the candidate list of each query (agent.yaml hnsw.ef_search). */
  efSearch?: number;
}

/** The lowest score of each scorer, the zero of normalised fusion: cosine similarity, BM25. */
const COSINE_FLOOR = -1;
const BM25_FLOOR = 0;

/**
 * Searches a collection: `semantic` ranks by cosine similarity (score 0..1), `keyword` by BM25
 * (both stores, statistics of this collection only), `hybrid` fuses both: `normalized` (score Σ
 * weight × score scaled from the scorer's floor to the list's best, so 0..semantic_weight +
 * keyword_weight; see fuseScores) or `rrf` (score Σ
 * weight / (rrf_k + rank)). `min_score` drops semantic matches below it before any fusion.
 */
export async function searchIndex(
  store: RetrievalStore,
  collection: string,
  query: string,
  embedQuery: (query: string) => Promise<Float32Array>,
  settings: SearchSettings,
): Promise<ScoredChunk[]> {
  const semantic = async (limit: number) => {
    const options = settings.efSearch !== undefined ? { efSearch: settings.efSearch } : {};
    const hits = await store.searchSemantic(collection, await embedQuery(query), limit, options);
    return settings.minScore === undefined
      ? hits
      : hits.filter((hit) => hit.score >= (settings.minScore ?? 0));
  };
  const keyword = (limit: number) => store.searchKeyword(collection, queryTerms(query), limit);
  switch (settings.mode) {
    case 'semantic':
      return semantic(settings.topK);
    case 'keyword':
      return keyword(settings.topK);
    case 'hybrid': {
      // Candidates each list contributes before fusion (agent.yaml validation checks ef_search against it).
      const limit = hybridCandidates(settings.topK);
      const [semanticHits, keywordHits] = await Promise.all([
        settings.semanticWeight > 0 ? semantic(limit) : Promise.resolve([]),
        settings.keywordWeight > 0 ? keyword(limit) : Promise.resolve([]),
      ]);
      const rankings = [
        { hits: semanticHits, weight: settings.semanticWeight, floor: COSINE_FLOOR },
        { hits: keywordHits, weight: settings.keywordWeight, floor: BM25_FLOOR },
      ];
      const fused = settings.fusion === 'rrf' ? fuseRankings(rankings, settings.rrfK) : fuseScores(rankings);
      return fused.slice(0, settings.topK);
    }
  }
}
