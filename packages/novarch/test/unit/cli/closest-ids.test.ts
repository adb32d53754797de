import { describe, expect, it } from 'vitest';
import { closestIds, unknownIdMessage } from '../../../src/operations/closest-ids.js';

describe('closestIds', () => {
  it('returns the nearest ids by edit distance, nearest first, at most three', () => {
    const ids = ['hold_abcd', 'hold_abce', 'hold_zzzz', 'ses_abcd', 'hold_abzz'];
    expect(closestIds('hold_abcx', ids)).toEqual(['hold_abcd', 'hold_abce', 'hold_abzz']);
    expect(closestIds('x', [])).toEqual([]);
  });

  it('says when the store has none of that kind', () => {
    expect(unknownIdMessage('session', 'ses_9', [], '/s.db')).toBe(
      'No session "ses_9" in the store at /s.db: it has no sessions.',
    );
    expect(unknownIdMessage('hold', 'hold_2', ['hold_1'], '/s.db')).toBe(
      'No hold "hold_2" in the store at /s.db.\nClosest hold ids:\n  hold_1',
    );
  });
});
