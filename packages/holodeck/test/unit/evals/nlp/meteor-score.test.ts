import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignMeteorWords, meteorScore, tokenizeForBleu } from '../../../../src/evals/nlp/index.js';
import { meteorCases } from './load-nlp-fixture.js';

// Same arithmetic as NLTK in IEEE doubles; only the last bits of pow() may differ.
const TOLERANCE = 1e-9;

describe('meteorScore agrees with NLTK meteor_score, WordNet stubbed out (test/fixtures/nlp/meteor.json)', () => {
  it('covers the cases the fixture set promises', () => {
    expect(meteorCases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(meteorCases)('$id', ({ reference, candidate, referenceTokens, candidateTokens, meteor }) => {
    expect(tokenizeForBleu(reference)).toEqual(referenceTokens);
    expect(tokenizeForBleu(candidate)).toEqual(candidateTokens);
    expect(Math.abs(meteorScore(reference, candidate) - meteor)).toBeLessThanOrEqual(TOLERANCE);
  });
});

describe('meteorScore by hand', () => {
  it('penalises fragmentation: a full reordering is six chunks of one word', () => {
    // All 6 words match (P = R = 1, Fmean = 1); aligned as on-on, the-the(0), mat-mat, sat-sat,
    // the-the(4), cat-cat, no two neighbours adjacent in both texts: chunks = 6, frag = 6/6,
    // penalty = 0.5 * 1^3, score = 0.5.
    expect(meteorScore('the cat sat on the mat', 'on the mat sat the cat')).toBeCloseTo(0.5, 15);
  });

  it('matches stems after exact words', () => {
    // ref: the runners were running quickly (5); candidate: the runner runs quick (4).
    // exact: the. stems: runner = runner(s), run(s) = run(ning); quick != quickli (quickly's stem).
    // m = 3, P = 3/4, R = 3/5, Fmean = P*R / (0.9 P + 0.1 R) = 0.45 / 0.735.
    // Alignment (0,0) (1,1) (2,3): 2 chunks, frag = 2/3, penalty = 0.5 * 8/27 = 4/27.
    const expected = (1 - 4 / 27) * (0.45 / 0.735);
    expect(meteorScore('The runners were running quickly', 'The runner runs quick')).toBeCloseTo(
      expected,
      12,
    );
    expect(
      alignMeteorWords(['the', 'runner', 'runs', 'quick'], ['the', 'runners', 'were', 'running', 'quickly']),
    ).toEqual([
      [0, 0],
      [1, 1],
      [2, 3],
    ]);
  });

  it('has no synonym stage: car and automobile do not match', () => {
    // m = 3 of 4 on each side: Fmean = 0.75; chunks 2 (the | is red), penalty 0.5 * (2/3)^3 = 4/27.
    expect(meteorScore('the car is red', 'the automobile is red')).toBeCloseTo(0.75 * (1 - 4 / 27), 12);
  });

  it('is 0 with no match or an empty side; identical texts score just under 1', () => {
    expect(meteorScore('this is a cat', 'non matching hypothesis')).toBe(0);
    expect(meteorScore('', 'something')).toBe(0);
    expect(meteorScore('something', '')).toBe(0);
    // One chunk of 4 words: 1 - 0.5 * (1/4)^3.
    expect(meteorScore('one two three four', 'One two three four')).toBeCloseTo(1 - 0.5 / 64, 15);
  });
});

describe('meteorScore properties', () => {
  const text = fc.string({
    unit: fc.constantFrom('a', 'b', 'run', 'ing', 's', ' ', '.', 'É'),
    maxLength: 40,
  });

  it('is always in [0, 1]', () => {
    fc.assert(
      fc.property(text, text, (reference, candidate) => {
        const score = meteorScore(reference, candidate);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
      }),
    );
  });
});
