import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clusterPassRateInterval,
  cohenKappa,
  differenceInterval,
  holmAdjust,
  pairedBootstrapDifference,
  passRateInterval,
  wilsonScoreInterval,
} from '../../src/index.js';

const counts = fc
  .tuple(fc.integer({ min: 1, max: 500 }), fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([trials, share]) => ({ trials, successes: Math.round(trials * share) }));
const confidence = fc.constantFrom(0.8, 0.9, 0.95, 0.99);

describe('interval properties', () => {
  it('Wilson and pass-rate intervals contain the estimate and stay inside [0, 1]', () => {
    fc.assert(
      fc.property(counts, confidence, ({ successes, trials }, level) => {
        for (const interval of [
          wilsonScoreInterval(successes, trials, level),
          passRateInterval(successes, trials, level),
        ]) {
          expect(interval.lower).toBeLessThanOrEqual(interval.estimate);
          expect(interval.upper).toBeGreaterThanOrEqual(interval.estimate);
          expect(interval.lower).toBeGreaterThanOrEqual(0);
          expect(interval.upper).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('narrow with more attempts at the same pass rate', () => {
    fc.assert(
      fc.property(
        counts,
        fc.integer({ min: 2, max: 10 }),
        confidence,
        ({ successes, trials }, factor, level) => {
          const few = passRateInterval(successes, trials, level);
          const many = passRateInterval(successes * factor, trials * factor, level);
          expect(many.upper - many.lower).toBeLessThanOrEqual(few.upper - few.lower + 1e-12);
        },
      ),
    );
  });

  it('widen with the confidence level', () => {
    fc.assert(
      fc.property(counts, ({ successes, trials }) => {
        const low = wilsonScoreInterval(successes, trials, 0.9);
        const high = wilsonScoreInterval(successes, trials, 0.99);
        expect(high.upper - high.lower).toBeGreaterThanOrEqual(low.upper - low.lower);
      }),
    );
  });

  it('the cluster interval contains the suite pass rate', () => {
    const cluster = fc
      .tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 10 }))
      .map(([a, b]) => ({ passes: Math.min(a, b), attempts: Math.max(a, b) }));
    fc.assert(
      fc.property(fc.array(cluster, { maxLength: 40 }), confidence, (clusters, level) => {
        const interval = clusterPassRateInterval(clusters, level);
        expect(interval.lower).toBeLessThanOrEqual(interval.estimate);
        expect(interval.upper).toBeGreaterThanOrEqual(interval.estimate);
        expect(interval.effectiveAttempts).toBeLessThanOrEqual(
          Math.max(interval.attempts, interval.clusters),
        );
      }),
    );
  });

  it('the cluster interval narrows as more cases like them are added', () => {
    const cluster = fc
      .integer({ min: 1, max: 5 })
      .chain((attempts) => fc.integer({ min: 0, max: attempts }).map((passes) => ({ passes, attempts })));
    fc.assert(
      fc.property(fc.array(cluster, { minLength: 2, maxLength: 20 }), (clusters) => {
        const once = clusterPassRateInterval(clusters);
        const fourTimes = clusterPassRateInterval([...clusters, ...clusters, ...clusters, ...clusters]);
        expect(fourTimes.upper - fourTimes.lower).toBeLessThanOrEqual(once.upper - once.lower + 1e-12);
      }),
    );
  });

  it('the difference interval contains the difference and lies in [−1, 1]', () => {
    fc.assert(
      fc.property(counts, counts, confidence, (first, second, level) => {
        const interval = differenceInterval(
          first.successes,
          first.trials,
          second.successes,
          second.trials,
          level,
        );
        expect(interval.lower).toBeLessThanOrEqual(interval.estimate + 1e-12);
        expect(interval.upper).toBeGreaterThanOrEqual(interval.estimate - 1e-12);
        expect(interval.lower).toBeGreaterThanOrEqual(-1);
        expect(interval.upper).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('the paired bootstrap contains its estimate and is deterministic for a seed', () => {
    const side = fc
      .integer({ min: 1, max: 5 })
      .chain((attempts) => fc.integer({ min: 0, max: attempts }).map((passes) => ({ passes, attempts })));
    const pair = fc.record({ baseline: side, current: side });
    fc.assert(
      fc.property(fc.array(pair, { minLength: 1, maxLength: 30 }), fc.integer(), (pairs, seed) => {
        const result = pairedBootstrapDifference(pairs, { seed, resamples: 200 });
        expect(result.lower).toBeLessThanOrEqual(result.estimate);
        expect(result.upper).toBeGreaterThanOrEqual(result.estimate);
        expect(pairedBootstrapDifference(pairs, { seed, resamples: 200 })).toEqual(result);
      }),
      { numRuns: 50 },
    );
  });

  it("Holm's adjusted p-values are at least the raw ones and keep their order", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), (pValues) => {
        const adjusted = holmAdjust(pValues);
        for (const [index, p] of pValues.entries()) {
          expect(adjusted[index]).toBeGreaterThanOrEqual(p);
          expect(adjusted[index]).toBeLessThanOrEqual(1);
          for (const [other, q] of pValues.entries())
            if (p < q) expect(adjusted[index]).toBeLessThanOrEqual(adjusted[other] ?? 1);
        }
      }),
    );
  });

  it("kappa's interval contains kappa", () => {
    const table = fc
      .array(fc.integer({ min: 0, max: 30 }), { minLength: 4, maxLength: 4 })
      .filter((cells) => cells.some((cell) => cell > 0));
    fc.assert(
      fc.property(table, ([a = 0, b = 0, c = 0, d = 0]) => {
        const result = cohenKappa([
          [a, b],
          [c, d],
        ]);
        if (result.kappa === null || result.interval === null) return;
        expect(result.interval.lower).toBeLessThanOrEqual(result.kappa + 1e-12);
        expect(result.interval.upper).toBeGreaterThanOrEqual(result.kappa - 1e-12);
      }),
    );
  });
});
