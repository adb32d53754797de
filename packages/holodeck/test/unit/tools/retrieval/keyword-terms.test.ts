import { describe, expect, it } from 'vitest';
import { keywordTerms, MAX_KEYWORD_TERMS } from '../../../../src/tools/retrieval/store/keyword-terms.js';

describe('keywordTerms', () => {
  it('keeps every term, rarest first, when none is in more than half the chunks', () => {
    expect(
      keywordTerms(
        [
          { term: 'refund', docs: 40 },
          { term: 'policy', docs: 3 },
          { term: 'café', docs: 0 },
        ],
        100,
      ),
    ).toEqual({ terms: ['café', 'policy', 'refund'], complete: true });
  });

  it('drops terms in more than half the chunks while a rarer one remains', () => {
    expect(
      keywordTerms(
        [
          { term: 'the', docs: 90 },
          { term: 'refund', docs: 4 },
        ],
        100,
      ),
    ).toEqual({ terms: ['refund'], complete: false });
    expect(
      keywordTerms(
        [
          { term: 'the', docs: 90 },
          { term: 'and', docs: 80 },
        ],
        100,
      ),
    ).toEqual({ terms: ['and', 'the'], complete: true });
  });

  it('bounds the number of terms to the rarest', () => {
    const many = Array.from({ length: 30 }, (_, index) => ({ term: `t${index}`, docs: 30 - index }));
    const { terms } = keywordTerms(many, 1000);
    expect(terms).toHaveLength(MAX_KEYWORD_TERMS);
    expect(terms[0]).toBe('t29');
  });
});
