/**
 * Counts the n-grams of a token list (NLTK's `Counter(ngrams(tokens, n))`, rouge-score's
 * `_create_ngrams`). Keys are the JSON of the n-gram's tokens, which cannot collide.
 * Fewer than `n` tokens give an empty map.
 */
export function countNgrams(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let start = 0; start + n <= tokens.length; start++) {
    const key = JSON.stringify(tokens.slice(start, start + n));
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Sum of the counts of a map from `countNgrams`. */
export function totalCount(counts: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const count of counts.values()) total += count;
  return total;
}

/** Matches of `candidate` n-grams in `reference`, each clipped to its count in the reference. */
export function clippedOverlap(
  candidate: ReadonlyMap<string, number>,
  reference: ReadonlyMap<string, number>,
): number {
  let overlap = 0;
  for (const [ngram, count] of candidate) overlap += Math.min(count, reference.get(ngram) ?? 0);
  return overlap;
}
