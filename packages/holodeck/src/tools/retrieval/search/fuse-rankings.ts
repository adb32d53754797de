import type { ScoredChunk } from '../store/retrieval-store.js';

/** One ranked list and its weight in the fusion. */
export interface WeightedRanking {
  hits: readonly ScoredChunk[];
  weight: number;
}

/**
 * Reciprocal rank fusion: a chunk scores Σ weight / (k + rank) over the lists it is in (rank
 * 1-based), so agreeing lists lift a chunk and no list's raw scores need to be comparable.
 * Ties keep the order of first appearance.
 */
export function fuseRankings(rankings: readonly WeightedRanking[], k: number): ScoredChunk[] {
  const fused = new Map<string, ScoredChunk>();
  for (const { hits, weight } of rankings) {
    if (weight === 0) continue;
    hits.forEach((hit, index) => {
      const contribution = weight / (k + index + 1);
      const known = fused.get(hit.chunk.id);
      if (known) known.score += contribution;
      else fused.set(hit.chunk.id, { chunk: hit.chunk, score: contribution });
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/**
 * Score-normalised fusion: each list's scores are scaled to 0..1 by its own best and worst
 * candidate (min-max), and a chunk scores Σ weight × its scaled score over the lists it is in (0
 * where it is missing), so a strong match in one list is not drowned by a middling rank in the
 * other. Ties keep the order of first appearance.
 */
export function fuseScores(rankings: readonly WeightedRanking[]): ScoredChunk[] {
  const fused = new Map<string, ScoredChunk>();
  for (const { hits, weight } of rankings) {
    if (weight === 0 || !hits.length) continue;
    const scores = hits.map((hit) => hit.score);
    const best = Math.max(...scores);
    const worst = Math.min(...scores);
    const span = best - worst;
    for (const hit of hits) {
      const contribution = weight * (span > 0 ? (hit.score - worst) / span : 1);
      const known = fused.get(hit.chunk.id);
      if (known) known.score += contribution;
      else fused.set(hit.chunk.id, { chunk: hit.chunk, score: contribution });
    }
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
