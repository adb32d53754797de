import { alignMeteorWords, type WordAlignment } from './align-meteor-words.js';
import { tokenizeForBleu } from './tokenize-for-bleu.js';

/**
 * METEOR parameters, NLTK's defaults: alpha weighs precision against recall, beta shapes and gamma
 * weighs the fragmentation penalty.
 */
export interface MeteorOptions {
  alpha?: number;
  beta?: number;
  gamma?: number;
}

/**
 * METEOR of `candidate` against one `reference`, in [0, 1], as NLTK's
 * `nltk.translate.meteor_score.meteor_score([reference_tokens], candidate_tokens)` computes it on
 * tokens from `tokenizeForBleu`, with two matching stages: exact words, then Porter stems
 * (NLTK's `PorterStemmer()`). NLTK's third stage, WordNet synonyms, is not implemented: it needs the
 * WordNet corpus, which is large, not on npm and not downloadable here; without it a synonym
 * ("car" / "automobile") counts as a miss, so scores can be lower than NLTK's with WordNet installed.
 *
 * With m matched words, candidate length c and reference length r:
 * P = m/c, R = m/r, Fmean = P·R / (alpha·P + (1 - alpha)·R), penalty = gamma · (chunks/m)^beta,
 * score = (1 - penalty) · Fmean, where chunks is the number of runs of matches adjacent in both
 * texts. No match, or an empty text, scores 0. Identical texts score just below 1 (one chunk of
 * m words still costs gamma/m^beta).
 */
export function meteorScore(reference: string, candidate: string, options: MeteorOptions = {}): number {
  return meteorScoreFromTokens(tokenizeForBleu(reference), tokenizeForBleu(candidate), options);
}

/** `meteorScore` on tokens that are already split; they are lowercased here (NLTK's `preprocess=str.lower`). */
export function meteorScoreFromTokens(
  reference: readonly string[],
  candidate: readonly string[],
  options: MeteorOptions = {},
): number {
  const alpha = options.alpha ?? 0.9;
  const beta = options.beta ?? 3;
  const gamma = options.gamma ?? 0.5;
  const candidateWords = candidate.map((word) => word.toLowerCase());
  const referenceWords = reference.map((word) => word.toLowerCase());

  const matches = alignMeteorWords(candidateWords, referenceWords);
  const matchCount = matches.length;
  if (matchCount === 0 || candidateWords.length === 0 || referenceWords.length === 0) return 0;

  const precision = matchCount / candidateWords.length;
  const recall = matchCount / referenceWords.length;
  const fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall);
  const fragmentation = countChunks(matches) / matchCount;
  const penalty = gamma * fragmentation ** beta;
  return (1 - penalty) * fmean;
}

/** NLTK's `_count_chunks`: runs of matches that are consecutive in both the candidate and the reference. */
function countChunks(matches: readonly WordAlignment[]): number {
  let chunks = 1;
  for (let index = 0; index < matches.length - 1; index++) {
    const [candidateIndex, referenceIndex] = matches[index] as WordAlignment;
    const [nextCandidateIndex, nextReferenceIndex] = matches[index + 1] as WordAlignment;
    if (nextCandidateIndex !== candidateIndex + 1 || nextReferenceIndex !== referenceIndex + 1) chunks++;
  }
  return chunks;
}
