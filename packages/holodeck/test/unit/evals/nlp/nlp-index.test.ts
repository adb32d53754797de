import { describe, expect, it } from 'vitest';
import * as nlp from '../../../../src/evals/nlp/index.js';

describe('evals/nlp public API', () => {
  it('exports exactly this list', () => {
    expect(Object.keys(nlp).sort()).toEqual(
      [
        'BLEU_SMOOTHINGS',
        'alignMeteorWords',
        'brevityPenalty',
        'levenshteinDistance',
        'levenshteinSimilarity',
        'meteorScore',
        'meteorScoreFromTokens',
        'porterStem',
        'rougeL',
        'rougeN',
        'rougeScores',
        'sentenceBleu',
        'sentenceBleuFromTokens',
        'tokenizeForBleu',
        'tokenizeForRouge',
      ].sort(),
    );
  });
});
