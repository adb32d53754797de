import { clippedOverlap, countNgrams, totalCount } from './count-ngrams.js';
import { longestCommonSubsequenceLength } from './longest-common-subsequence.js';
import { tokenizeForRouge } from './tokenize-for-rouge.js';

/** Precision, recall and F-measure of one ROUGE variant, each in [0, 1]. */
export interface Prf {
  precision: number;
  recall: number;
  fmeasure: number;
}

/** ROUGE-1, ROUGE-2 and ROUGE-L of a candidate against a reference. */
export interface RougeScores {
  rouge1: Prf;
  rouge2: Prf;
  rougeL: Prf;
}

/** Options of `rougeScores`. */
export interface RougeOptions {
  /** Porter-stem tokens longer than 3 characters, as rouge-score's `use_stemmer=True`. Default false. */
  useStemmer?: boolean;
}

/**
 * ROUGE as Google's `rouge-score` package computes it (`RougeScorer(['rouge1', 'rouge2', 'rougeL'])`,
 * target = `reference`, prediction = `candidate`), on tokens from `tokenizeForRouge` (no stemming
 * unless asked):
 * - ROUGE-N: overlapping n-grams, each clipped to its count in the other text, over the candidate's
 *   n-grams (precision) and the reference's n-grams (recall); a text with no n-grams divides by 1.
 * - ROUGE-L: LCS length over the candidate's length (precision) and the reference's length (recall);
 *   all 0 when either text has no tokens.
 * - F-measure: 2·P·R / (P + R), 0 when P + R is 0.
 */
export function rougeScores(reference: string, candidate: string, options: RougeOptions = {}): RougeScores {
  const referenceTokens = tokenizeForRouge(reference, options);
  const candidateTokens = tokenizeForRouge(candidate, options);
  return {
    rouge1: rougeN(referenceTokens, candidateTokens, 1),
    rouge2: rougeN(referenceTokens, candidateTokens, 2),
    rougeL: rougeL(referenceTokens, candidateTokens),
  };
}

/** ROUGE-N on token lists (rouge-score's `_score_ngrams`). */
export function rougeN(reference: readonly string[], candidate: readonly string[], n: number): Prf {
  const referenceCounts = countNgrams(reference, n);
  const candidateCounts = countNgrams(candidate, n);
  const overlap = clippedOverlap(candidateCounts, referenceCounts);
  const precision = overlap / Math.max(totalCount(candidateCounts), 1);
  const recall = overlap / Math.max(totalCount(referenceCounts), 1);
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

/** ROUGE-L on token lists (rouge-score's `_score_lcs`). */
export function rougeL(reference: readonly string[], candidate: readonly string[]): Prf {
  if (reference.length === 0 || candidate.length === 0) return { precision: 0, recall: 0, fmeasure: 0 };
  const lcs = longestCommonSubsequenceLength(reference, candidate);
  const precision = lcs / candidate.length;
  const recall = lcs / reference.length;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

/** rouge-score's `scoring.fmeasure`: the harmonic mean of precision and recall. */
function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}
