// Text-similarity metrics for `holodeck test`: pure functions, no I/O. Explicit export list,
// pinned by test/unit/evals/nlp/nlp-index.test.ts.

export { alignMeteorWords, type WordAlignment } from './align-meteor-words.js';
export { BLEU_SMOOTHINGS, type BleuSmoothing } from './bleu-smoothing.js';
export { levenshteinDistance, levenshteinSimilarity } from './levenshtein-similarity.js';
export { type MeteorOptions, meteorScore, meteorScoreFromTokens } from './meteor-score.js';
export { porterStem } from './porter-stemmer.js';
export {
  type Prf,
  type RougeOptions,
  type RougeScores,
  rougeL,
  rougeN,
  rougeScores,
} from './rouge-scores.js';
export {
  brevityPenalty,
  type SentenceBleuOptions,
  sentenceBleu,
  sentenceBleuFromTokens,
} from './sentence-bleu.js';
export { tokenizeForBleu } from './tokenize-for-bleu.js';
export { tokenizeForRouge } from './tokenize-for-rouge.js';
