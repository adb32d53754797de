import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { levenshteinDistance, levenshteinSimilarity } from '../../../../src/evals/nlp/index.js';

describe('levenshteinDistance and levenshteinSimilarity by hand', () => {
  it('kitten -> sitting: 2 substitutions and 1 insertion', () => {
    expect(levenshteinDistance('kitten', 'sitting')).toBe(3);
    expect(levenshteinSimilarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7, 15);
  });

  it('flaw -> lawn: a deletion and an insertion', () => {
    expect(levenshteinDistance('flaw', 'lawn')).toBe(2);
    expect(levenshteinSimilarity('flaw', 'lawn')).toBe(0.5);
  });

  it('empty strings: two empty strings are identical, one empty string is all edits', () => {
    expect(levenshteinSimilarity('', '')).toBe(1);
    expect(levenshteinDistance('abc', '')).toBe(3);
    expect(levenshteinSimilarity('abc', '')).toBe(0);
  });

  it('counts code points, not UTF-16 units, and neither folds case nor normalises', () => {
    expect(levenshteinDistance('🐱', '🐶')).toBe(1);
    expect(levenshteinSimilarity('🐱', '🐶')).toBe(0);
    expect(levenshteinSimilarity('a🐱', 'a🐶')).toBe(0.5);
    expect(levenshteinDistance('Paris', 'paris')).toBe(1);
    // "café" precomposed (4 code points) vs e + U+0301 (5): substitute é -> e, insert U+0301.
    expect(levenshteinDistance('caf\u00e9', 'cafe\u0301')).toBe(2);
    expect(levenshteinSimilarity('caf\u00e9', 'cafe\u0301')).toBeCloseTo(1 - 2 / 5, 15);
  });
});

describe('levenshtein properties', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', 'é', '🐱'), maxLength: 30 });

  it('similarity is in [0, 1], symmetric, and 1 exactly for equal strings', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const similarity = levenshteinSimilarity(a, b);
        expect(similarity).toBeGreaterThanOrEqual(0);
        expect(similarity).toBeLessThanOrEqual(1);
        expect(levenshteinSimilarity(b, a)).toBe(similarity);
        expect(levenshteinDistance(b, a)).toBe(levenshteinDistance(a, b));
        expect(similarity === 1).toBe(a === b);
        expect(levenshteinSimilarity(a, a)).toBe(1);
      }),
    );
  });

  it('distance obeys the triangle inequality', () => {
    fc.assert(
      fc.property(text, text, text, (a, b, c) => {
        expect(levenshteinDistance(a, c)).toBeLessThanOrEqual(
          levenshteinDistance(a, b) + levenshteinDistance(b, c),
        );
      }),
    );
  });
});
