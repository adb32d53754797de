import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PairedCounts, pairedBootstrapDifference, seededRandom } from '../../src/index.js';

/** The bootstrap written plainly over seededRandom: what the optimised loop must equal, draw for draw. */
function plainBootstrap(pairs: PairedCounts[], seed: number, resamples: number): number[] {
  const random = seededRandom(seed);
  const rate = (passes: number, attempts: number) => (attempts ? passes / attempts : 0);
  return Array.from({ length: resamples }, () => {
    const drawn = pairs.map(() => pairs[Math.floor(random() * pairs.length)] as PairedCounts);
    const sum = (pick: (pair: PairedCounts) => number) =>
      drawn.reduce((total, pair) => total + pick(pair), 0);
    return (
      rate(
        sum((pair) => pair.current.passes),
        sum((pair) => pair.current.attempts),
      ) -
      rate(
        sum((pair) => pair.baseline.passes),
        sum((pair) => pair.baseline.attempts),
      )
    );
  });
}

function percentile(sorted: number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const lowValue = sorted[low] ?? 0;
  return lowValue + ((sorted[Math.ceil(position)] ?? lowValue) - lowValue) * (position - low);
}

const counts = fc
  .integer({ min: 1, max: 6 })
  .chain((attempts) =>
    fc.record({ passes: fc.integer({ min: 0, max: attempts }), attempts: fc.constant(attempts) }),
  );

describe('the paired bootstrap draws', () => {
  it('are those of seededRandom(seed): the fast loop gives the plain one’s interval exactly', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ baseline: counts, current: counts }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        (pairs, seed) => {
          const resamples = 200;
          const fast = pairedBootstrapDifference(pairs, { seed, resamples, confidence: 0.9 });
          const plain = plainBootstrap(pairs, seed, resamples).sort((a, b) => a - b);
          const alpha = 1 - 0.9;
          expect(fast.lower).toBe(Math.min(fast.estimate, percentile(plain, alpha / 2)));
          expect(fast.upper).toBe(Math.max(fast.estimate, percentile(plain, 1 - alpha / 2)));
        },
      ),
      { numRuns: 60 },
    );
  });
});
