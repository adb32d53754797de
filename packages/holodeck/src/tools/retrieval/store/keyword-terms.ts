/**
 * A query term and the number of chunks of the collection searched that contain it (after the
 * collection's tokenizer: folded, and stemmed when the tool stems), as its keyword index counts it.
 */
export interface TermFrequency {
  term: string;
  docs: number;
}

/** Most common terms (each in half the chunks or more) a keyword search matches when no rarer term is left. */
export const MAX_COMMON_TERMS = 16;

/**
 * The terms worth matching in an OR-query over `rows` chunks, rarest first. Every term with a
 * positive BM25 IDF (in fewer than half the chunks) is kept, however long the query. Terms in half
 * the chunks or more are dropped when a rarer term remains: BM25's IDF is 0 for them (FTS5 floors
 * it at 1e-6), so they do not change the order of chunks that match another term, yet they make
 * the query rank most of the index. `complete` is false when such terms were dropped: the caller
 * runs the full query again if the reduced one finds fewer hits than it needs (chunks matching
 * only common words). A query of common terms only keeps the rarest 16 of them.
 */
export function keywordTerms(
  frequencies: readonly TermFrequency[],
  rows: number,
): { terms: string[]; complete: boolean } {
  const sorted = [...frequencies].sort((a, b) => a.docs - b.docs);
  const informative = sorted.filter((entry) => entry.docs * 2 < rows);
  if (informative.length)
    return { terms: informative.map((entry) => entry.term), complete: informative.length === sorted.length };
  const common = sorted.slice(0, MAX_COMMON_TERMS);
  return { terms: common.map((entry) => entry.term), complete: common.length === sorted.length };
}
