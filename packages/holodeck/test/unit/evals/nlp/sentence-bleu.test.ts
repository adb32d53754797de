import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BLEU_SMOOTHINGS,
  brevityPenalty,
  sentenceBleu,
  sentenceBleuFromTokens,
  tokenizeForBleu,
} from '../../../../src/evals/nlp/index.js';
import { bleuCases } from './load-nlp-fixture.js';

// NLTK computes with the same IEEE doubles; the only differences are in the last bits of log/exp
// (libm versus V8) and NLTK's math.fsum versus a plain sum: far below this tolerance.
const TOLERANCE = 1e-9;

describe('sentenceBleu agrees with NLTK sentence_bleu (test/fixtures/nlp/bleu.json)', () => {
  it('covers the cases the fixture set promises', () => {
    expect(bleuCases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(bleuCases)('$id: tokens', ({ reference, candidate, referenceTokens, candidateTokens }) => {
    expect(tokenizeForBleu(reference)).toEqual(referenceTokens);
    expect(tokenizeForBleu(candidate)).toEqual(candidateTokens);
  });

  it.each(bleuCases)('$id: BLEU-4, BLEU-4 with auto_reweigh, BLEU-2, every smoothing', (fixture) => {
    for (const smoothing of BLEU_SMOOTHINGS) {
      const bleu4 = sentenceBleu(fixture.reference, fixture.candidate, { smoothing });
      const reweighed = sentenceBleu(fixture.reference, fixture.candidate, { smoothing, autoReweigh: true });
      const bleu2 = sentenceBleu(fixture.reference, fixture.candidate, { smoothing, maxN: 2 });
      expect(Math.abs(bleu4 - fixture.bleu4[smoothing]), `bleu4 ${smoothing}`).toBeLessThanOrEqual(TOLERANCE);
      expect(
        Math.abs(reweighed - fixture.bleu4AutoReweigh[smoothing]),
        `auto ${smoothing}`,
      ).toBeLessThanOrEqual(TOLERANCE);
      expect(Math.abs(bleu2 - fixture.bleu2[smoothing]), `bleu2 ${smoothing}`).toBeLessThanOrEqual(TOLERANCE);
    }
  });

  it('defaults to BLEU-4 with method1 smoothing and no reweighing', () => {
    for (const fixture of bleuCases) {
      expect(sentenceBleu(fixture.reference, fixture.candidate)).toBe(
        sentenceBleu(fixture.reference, fixture.candidate, {
          maxN: 4,
          smoothing: 'method1',
          autoReweigh: false,
        }),
      );
    }
  });
});

describe('sentenceBleu by hand', () => {
  it('scores the brevity penalty exp(1 - r/c)', () => {
    expect(brevityPenalty(9, 4)).toBeCloseTo(Math.exp(1 - 9 / 4), 15);
    expect(brevityPenalty(4, 9)).toBe(1);
    expect(brevityPenalty(4, 4)).toBe(1);
    expect(brevityPenalty(4, 0)).toBe(0);
  });

  it('a 4-token prefix of a 9-token reference: every precision is 1, so BLEU is the penalty', () => {
    // p1..p4 = 4/4, 3/3, 2/2, 1/1; BP = exp(1 - 9/4).
    expect(sentenceBleu('The quick brown fox jumps over the lazy dog', 'The quick brown fox')).toBeCloseTo(
      Math.exp(1 - 9 / 4),
      12,
    );
  });

  it('clips repeated words: seven "the" against a reference with two', () => {
    // p1 = 2/7; p2..p4 have no match: method1 gives 0.1/6, 0.1/5, 0.1/4; BP = 1 (7 > 6 tokens).
    const expected = Math.exp(
      (Math.log(2 / 7) + Math.log(0.1 / 6) + Math.log(0.1 / 5) + Math.log(0.1 / 4)) / 4,
    );
    expect(sentenceBleu('the cat is on the mat', 'the the the the the the the')).toBeCloseTo(expected, 12);
  });

  it('a short exact answer scores 1 only with autoReweigh', () => {
    expect(sentenceBleu('Paris', 'Paris')).toBeCloseTo(0.1 ** 0.75, 12);
    expect(sentenceBleu('Paris', 'Paris', { autoReweigh: true })).toBe(1);
  });

  it('is 0 without a unigram match, for an empty candidate and for an empty reference', () => {
    expect(sentenceBleu('alpha beta gamma delta', 'one two three four')).toBe(0);
    expect(sentenceBleu('alpha beta gamma delta', '')).toBe(0);
    expect(sentenceBleu('', 'alpha beta gamma delta')).toBe(0);
    expect(sentenceBleuFromTokens([], [])).toBe(0);
  });
});

describe('sentenceBleu properties', () => {
  const text = fc.string({
    unit: fc.constantFrom('a', 'b', 'c', 'd', ' ', '.', 'É', 'é', '🐱'),
    maxLength: 40,
  });

  it('is always in [0, 1]', () => {
    fc.assert(
      fc.property(
        text,
        text,
        fc.constantFrom(...BLEU_SMOOTHINGS),
        fc.boolean(),
        (reference, candidate, smoothing, autoReweigh) => {
          const score = sentenceBleu(reference, candidate, { smoothing, autoReweigh });
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('scores 1 for identical texts of at least 4 tokens (BLEU-4 has 4-grams to match)', () => {
    const words = fc.array(fc.constantFrom('the', 'cat', 'sat', 'mat', ',', 'on'), {
      minLength: 4,
      maxLength: 20,
    });
    fc.assert(
      fc.property(words, (tokens) => {
        const sentence = tokens.join(' ');
        expect(sentenceBleu(sentence, sentence)).toBeCloseTo(1, 12);
      }),
    );
  });

  it('scores 1 for any identical non-empty text with autoReweigh', () => {
    const words = fc.array(fc.constantFrom('the', 'cat', 'sat', 'mat', ',', 'on'), {
      minLength: 1,
      maxLength: 20,
    });
    fc.assert(
      fc.property(words, (tokens) => {
        const sentence = tokens.join(' ');
        expect(sentenceBleu(sentence, sentence, { autoReweigh: true })).toBeCloseTo(1, 12);
      }),
    );
  });
});
