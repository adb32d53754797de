/**
 * A query term and the number of indexed chunks (all collections) that contain it, as FTS5's
 * vocabulary table counts it (0 also when the tokenizer folds the term, e.g. diacritics).
 */
export interface TermFrequency {
  term: string;
  docs: number;
}

/** Most terms one keyword search matches: the rarest, as they carry the BM25 weight. */
export const MAX_KEYWORD_TERMS = 16;

/**
 * The terms worth matching in an FTS5 OR-query over `rows` chunks, rarest first (a term counted 0 is
 * kept: the tokenizer may still match it). Terms in more than half the chunks are dropped when a
 * rarer term remains: FTS5's bm25() floors their IDF at 1e-6, so they do not
 * change the order of chunks that match another term, yet they make the query rank most of the
 * index. `complete` is false when such terms were dropped: the caller runs the full query again
 * if the reduced one finds fewer hits than it needs (chunks matching only common words).
 */
export function keywordTerms(
  frequencies: readonly TermFrequency[],
  rows: number,
): { terms: string[]; complete: boolean } {
  const bounded = [...frequencies].sort((a, b) => a.docs - b.docs).slice(0, MAX_KEYWORD_TERMS);
  const informative = bounded.filter((entry) => entry.docs * 2 <= rows);
  const kept = informative.length ? informative : bounded;
  return { terms: kept.map((entry) => entry.term), complete: kept.length === bounded.length };
}
