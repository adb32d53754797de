import { describe, expect, it } from 'vitest';
import { keywordTerms, MAX_COMMON_TERMS } from '../../../../src/tools/retrieval/store/keyword-terms.js';

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

  it('keeps every term with a positive IDF however long the query (no cap drops a rare word)', () => {
    const many = Array.from({ length: 30 }, (_, index) => ({ term: `t${index}`, docs: 30 - index }));
    const { terms, complete } = keywordTerms(many, 1000);
    expect(terms).toHaveLength(30);
    expect(terms[0]).toBe('t29');
    expect(terms.at(-1)).toBe('t0');
    expect(complete).toBe(true);
  });

  it('drops a term in exactly half the chunks (IDF 0) while a rarer one remains', () => {
    expect(
      keywordTerms(
        [
          { term: 'half', docs: 50 },
          { term: 'rare', docs: 2 },
        ],
        100,
      ),
    ).toEqual({ terms: ['rare'], complete: false });
  });

  it('bounds a query of common terms only to the rarest 16', () => {
    const common = Array.from({ length: 20 }, (_, index) => ({ term: `c${index}`, docs: 900 + index }));
    const { terms, complete } = keywordTerms(common, 1000);
    expect(terms).toHaveLength(MAX_COMMON_TERMS);
    expect(terms[0]).toBe('c0');
    expect(complete).toBe(false);
  });
});
