import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rougeScores, tokenizeForRouge } from '../../../../src/evals/nlp/index.js';

// rouge-score (Google) is not installable here, so these expectations are worked out by hand
// from its algorithm: tokenize (lowercase, non-[a-z0-9] -> space, split), clipped n-gram overlap
// over candidate n-grams (P) and reference n-grams (R), LCS for ROUGE-L, F = 2PR / (P + R).

describe('rougeScores by hand', () => {
  it('partial overlap: 4 of 5 candidate words, 4 of 6 reference words', () => {
    // ref: the cat sat on the mat (6); candidate: a cat sat on mat (5).
    // ROUGE-1: overlap cat, sat, on, mat = 4: P = 4/5, R = 4/6, F = 2(4/5)(4/6) / (4/5 + 4/6) = 8/11.
    // ROUGE-2: ref bigrams the-cat cat-sat sat-on on-the the-mat (5), candidate a-cat cat-sat sat-on
    //          on-mat (4); overlap cat-sat, sat-on = 2: P = 2/4, R = 2/5, F = 0.4 / 0.9 = 4/9.
    // ROUGE-L: LCS cat sat on mat = 4: P = 4/5, R = 4/6, F = 8/11.
    const scores = rougeScores('The cat sat on the mat.', 'A cat sat on mat');
    expect(scores.rouge1.precision).toBeCloseTo(4 / 5, 15);
    expect(scores.rouge1.recall).toBeCloseTo(4 / 6, 15);
    expect(scores.rouge1.fmeasure).toBeCloseTo(8 / 11, 15);
    expect(scores.rouge2.precision).toBeCloseTo(2 / 4, 15);
    expect(scores.rouge2.recall).toBeCloseTo(2 / 5, 15);
    expect(scores.rouge2.fmeasure).toBeCloseTo(4 / 9, 15);
    expect(scores.rougeL).toEqual({ precision: 4 / 5, recall: 4 / 6, fmeasure: scores.rouge1.fmeasure });
  });

  it('word order: reversed text keeps ROUGE-1, loses ROUGE-2, ROUGE-L is one word', () => {
    // Same 4 unigrams: P = R = F = 1. No shared bigram: 0. LCS = 1: P = R = F = 1/4.
    const scores = rougeScores('one two three four', 'four three two one');
    expect(scores.rouge1).toEqual({ precision: 1, recall: 1, fmeasure: 1 });
    expect(scores.rouge2).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
    expect(scores.rougeL).toEqual({ precision: 0.25, recall: 0.25, fmeasure: 0.25 });
  });

  it('clips repeated n-grams to their count in the reference', () => {
    // ref: the the cat; candidate: the the the the.
    // ROUGE-1: min(2, 4) = 2: P = 2/4, R = 2/3, F = (2/3) / (7/6) = 4/7.
    // ROUGE-2: ref the-the, the-cat; candidate the-the x3: min(1, 3) = 1: P = 1/3, R = 1/2, F = 2/5.
    // ROUGE-L: LCS the the = 2: P = 2/4, R = 2/3, F = 4/7.
    const scores = rougeScores('the the cat', 'the the the the');
    expect(scores.rouge1.fmeasure).toBeCloseTo(4 / 7, 15);
    expect(scores.rouge2.precision).toBeCloseTo(1 / 3, 15);
    expect(scores.rouge2.recall).toBeCloseTo(1 / 2, 15);
    expect(scores.rouge2.fmeasure).toBeCloseTo(2 / 5, 15);
    expect(scores.rougeL.precision).toBeCloseTo(1 / 2, 15);
    expect(scores.rougeL.recall).toBeCloseTo(2 / 3, 15);
    expect(scores.rougeL.fmeasure).toBeCloseTo(4 / 7, 15);
  });

  it('has no stemming by default; useStemmer stems tokens longer than 3 characters', () => {
    // Without stemming only "the" matches: P = 1/3, R = 1/4, F = (2/12) / (7/12) = 2/7.
    // With it, runners -> runner, running/runs -> run: the, runner, run match: P = 1, R = 3/4, F = 6/7.
    const reference = 'The runners were running';
    const candidate = 'the runner runs';
    expect(rougeScores(reference, candidate).rouge1.fmeasure).toBeCloseTo(2 / 7, 15);
    expect(rougeScores(reference, candidate, { useStemmer: true }).rouge1.fmeasure).toBeCloseTo(6 / 7, 15);
  });

  it('scores 0 when a side has no [a-z0-9] token (empty, punctuation, non-Latin script)', () => {
    const zero = { precision: 0, recall: 0, fmeasure: 0 };
    for (const [reference, candidate] of [
      ['', ''],
      ['the cat', ''],
      ['', 'the cat'],
      ['猫が好き', '猫が好き'],
      ['!!!', '!!!'],
    ] as const) {
      expect(rougeScores(reference, candidate)).toEqual({ rouge1: zero, rouge2: zero, rougeL: zero });
    }
  });

  it('one-word texts have no bigrams: ROUGE-2 is 0 even when they are equal', () => {
    const scores = rougeScores('Paris', 'paris');
    expect(scores.rouge1.fmeasure).toBe(1);
    expect(scores.rouge2.fmeasure).toBe(0);
    expect(scores.rougeL.fmeasure).toBe(1);
  });
});

describe('tokenizeForRouge', () => {
  it('keeps only runs of [a-z0-9] after lowercasing', () => {
    expect(tokenizeForRouge('Café-au-lait, 100%!')).toEqual(['caf', 'au', 'lait', '100']);
    expect(tokenizeForRouge("It's state-of-the-art_v2")).toEqual([
      'it',
      's',
      'state',
      'of',
      'the',
      'art',
      'v2',
    ]);
    expect(tokenizeForRouge('  \n\t ')).toEqual([]);
  });
});

describe('rougeScores properties', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '-', 'É', '1'), maxLength: 40 });

  it('every precision, recall and F-measure is in [0, 1]', () => {
    fc.assert(
      fc.property(text, text, (reference, candidate) => {
        const scores = rougeScores(reference, candidate);
        for (const prf of [scores.rouge1, scores.rouge2, scores.rougeL]) {
          for (const value of [prf.precision, prf.recall, prf.fmeasure]) {
            expect(value).toBeGreaterThanOrEqual(0);
            expect(value).toBeLessThanOrEqual(1);
          }
        }
      }),
    );
  });

  it('identical texts with at least two tokens have F = 1 for ROUGE-1, ROUGE-2 and ROUGE-L', () => {
    const words = fc.array(fc.constantFrom('the', 'cat', 'sat', 'mat', 'on', 'Mat!'), {
      minLength: 2,
      maxLength: 20,
    });
    fc.assert(
      fc.property(words, (tokens) => {
        const sentence = tokens.join(' ');
        const scores = rougeScores(sentence, sentence);
        expect(scores.rouge1.fmeasure).toBeCloseTo(1, 15);
        expect(scores.rouge2.fmeasure).toBeCloseTo(1, 15);
        expect(scores.rougeL.fmeasure).toBeCloseTo(1, 15);
      }),
    );
  });
});
