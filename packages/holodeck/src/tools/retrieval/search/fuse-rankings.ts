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

/** One ranked list, its weight, and the lowest score its scorer can give (cosine −1, BM25 0). */
export interface FlooredRanking extends WeightedRanking {
  floor: number;
}

/**
 * Score-normalised fusion over the union of the lists' candidates. Each list's scores are scaled
 * by the scorer's theoretical minimum and the list's best candidate, (score − floor) / (best −
 * floor), so a list whose candidates are all weak (a cosine of 0.3 against 0.25) moves the fused
 * order little, where min-max scaling would stretch noise to the full 0..1. A chunk a list did not
 * return gets that list's lowest returned score (the most it can score there); treating it as the
 * floor would punish every candidate the other list found deeper than this one's cut-off. A chunk
 * scores Σ weight × scaled score (0..Σ weight); a list of weight 0 is ignored. Ties keep the order
 * of first appearance.
 */
export function fuseScores(rankings: readonly FlooredRanking[]): ScoredChunk[] {
  const fused = new Map<string, ScoredChunk>();
  for (const { hits, weight } of rankings)
    if (weight !== 0)
      for (const hit of hits)
        if (!fused.has(hit.chunk.id)) fused.set(hit.chunk.id, { chunk: hit.chunk, score: 0 });
  for (const { hits, weight, floor } of rankings) {
    if (weight === 0 || !hits.length) continue;
    const best = Math.max(...hits.map((hit) => hit.score));
    const scale = (score: number) => (best > floor ? (Math.max(score, floor) - floor) / (best - floor) : 1);
    const scores = new Map(hits.map((hit) => [hit.chunk.id, hit.score]));
    const lowest = Math.min(...scores.values());
    for (const [id, entry] of fused) entry.score += weight * scale(scores.get(id) ?? lowest);
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
