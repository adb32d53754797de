import { type BleuSmoothing, type NgramPrecision, smoothPrecisions } from './bleu-smoothing.js';
import { clippedOverlap, countNgrams, totalCount } from './count-ngrams.js';
import { tokenizeForBleu } from './tokenize-for-bleu.js';

/** Options of `sentenceBleu`; the defaults reproduce `sentence_bleu(..., smoothing_function=method1)`. */
export interface SentenceBleuOptions {
  /** Highest n-gram order, with uniform weights 1/maxN (NLTK `weights`). Default 4 (BLEU-4). */
  maxN?: 1 | 2 | 3 | 4;
  /**
   * NLTK smoothing method. Default `method1` (add 0.1 to zero match counts): the common choice
   * for sentence-level BLEU with NLTK; without smoothing (`method0`) any answer that shares no
   * 4-gram with the reference scores (practically) 0. `method3` is the NIST geometric smoothing that
   * SacreBLEU calls `exp` (the Python HoloDeck's BLEU), though SacreBLEU also differs in tokenizer
   * and "effective order", so its numbers are not reproduced.
   */
  smoothing?: BleuSmoothing;
  /**
   * NLTK's `auto_reweigh`: with BLEU-4 and a candidate shorter than 4 tokens, use the weights
   * 1/length over the first `length` orders. Default false, as in NLTK; then a candidate of fewer
   * than 4 tokens scores below 1 even when it equals the reference (its missing 3- and 4-grams
   * are smoothed zeros).
   */
  autoReweigh?: boolean;
}

/**
 * Sentence-level BLEU of `candidate` against one `reference`, in [0, 1]. Agrees with NLTK's
 * `nltk.translate.bleu_score.sentence_bleu([reference_tokens], candidate_tokens, weights,
 * smoothing_function, auto_reweigh)` on tokens from `tokenizeForBleu`: clipped (modified) n-gram
 * precisions, their weighted geometric mean, times the brevity penalty exp(1 - r/c) when the
 * candidate is not longer than the reference. An empty candidate, or one without a single
 * unigram match, scores 0.
 */
export function sentenceBleu(
  reference: string,
  candidate: string,
  options: SentenceBleuOptions = {},
): number {
  return sentenceBleuFromTokens(tokenizeForBleu(reference), tokenizeForBleu(candidate), options);
}

/** `sentenceBleu` on token lists that are already tokenized (no lowercasing or splitting here). */
export function sentenceBleuFromTokens(
  reference: readonly string[],
  candidate: readonly string[],
  options: SentenceBleuOptions = {},
): number {
  const maxN = options.maxN ?? 4;
  const smoothing = options.smoothing ?? 'method1';

  const precisions: NgramPrecision[] = [];
  for (let n = 1; n <= maxN; n++) {
    const candidateCounts = countNgrams(candidate, n);
    precisions.push({
      numerator: clippedOverlap(candidateCounts, countNgrams(reference, n)),
      denominator: Math.max(1, totalCount(candidateCounts)),
    });
  }
  if (precisions[0]?.numerator === 0) return 0;

  const penalty = brevityPenalty(reference.length, candidate.length);
  let weights = Array.from({ length: maxN }, () => 1 / maxN);
  if (options.autoReweigh && maxN === 4 && candidate.length < 4) {
    weights = Array.from({ length: candidate.length }, () => 1 / candidate.length);
  }

  const smoothed = smoothPrecisions(precisions, smoothing, candidate.length);
  let logSum = 0;
  weights.forEach((weight, index) => {
    const precision = smoothed[index] ?? 0;
    if (precision > 0) logSum += weight * Math.log(precision);
  });
  return penalty * Math.exp(logSum);
}

/** BLEU's brevity penalty for a candidate of `candidateLength` tokens against a reference of `referenceLength`. */
export function brevityPenalty(referenceLength: number, candidateLength: number): number {
  if (candidateLength > referenceLength) return 1;
  if (candidateLength === 0) return 0;
  return Math.exp(1 - referenceLength / candidateLength);
}
