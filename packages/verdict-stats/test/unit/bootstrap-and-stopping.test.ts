import { describe, expect, it } from 'vitest';
import {
  decideNextAttempt,
  type PairedCounts,
  pairedBootstrapDifference,
  perLookConfidence,
  seededRandom,
} from '../../src/index.js';

const single = (baseline: 0 | 1, current: 0 | 1): PairedCounts => ({
  baseline: { passes: baseline, attempts: 1 },
  current: { passes: current, attempts: 1 },
});

describe('paired bootstrap of the difference', () => {
  it('matches its analytic counterpart for single-attempt pairs: SE of the mean paired difference', () => {
    // 100 cases: 60 pass in both, 20 fail in both, 5 pass → fail, 15 fail → pass. d_i ∈ {−1, 0, 1};
    // the bootstrap SE of the mean d converges to sqrt(var_pop(d)/n), the plug-in standard error.
    const pairs = [
      ...Array.from({ length: 60 }, () => single(1, 1)),
      ...Array.from({ length: 20 }, () => single(0, 0)),
      ...Array.from({ length: 5 }, () => single(1, 0)),
      ...Array.from({ length: 15 }, () => single(0, 1)),
    ];
    const mean = 0.1;
    const variance = (5 * (-1 - mean) ** 2 + 15 * (1 - mean) ** 2 + 80 * mean ** 2) / 100;
    const analytic = Math.sqrt(variance / 100);
    const result = pairedBootstrapDifference(pairs, { resamples: 20_000, seed: 7 });
    expect(result.estimate).toBeCloseTo(0.1, 12);
    expect(Math.abs(result.standardError - analytic) / analytic).toBeLessThan(0.03);
    // The percentile interval is close to the normal one, estimate ± 1.96·SE.
    expect(result.lower).toBeCloseTo(mean - 1.96 * analytic, 1);
    expect(result.upper).toBeCloseTo(mean + 1.96 * analytic, 1);
  });

  it('gives the same figures for the same pairs and seed, and other figures for another seed', () => {
    const pairs = Array.from({ length: 30 }, (_, index) => single(index % 3 ? 1 : 0, index % 4 ? 1 : 0));
    const first = pairedBootstrapDifference(pairs, { seed: 1 });
    expect(pairedBootstrapDifference(pairs, { seed: 1 })).toEqual(first);
    expect(pairedBootstrapDifference(pairs, { seed: 2 }).standardError).not.toBe(first.standardError);
  });

  it('is [−1, 1] around 0 without pairs and rejects too few resamples', () => {
    expect(pairedBootstrapDifference([])).toMatchObject({ estimate: 0, lower: -1, upper: 1 });
    expect(() => pairedBootstrapDifference([], { resamples: 1 })).toThrow(
      'resamples must be a whole number ≥ 2, got 1',
    );
  });
});

describe('seeded random numbers', () => {
  it('are uniform-looking in [0, 1) and reproducible', () => {
    const random = seededRandom(42);
    const values = Array.from({ length: 10_000 }, () => random());
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    expect(values.reduce((sum, value) => sum + value, 0) / values.length).toBeCloseTo(0.5, 1);
    const again = seededRandom(42);
    expect(Array.from({ length: 5 }, () => again())).toEqual(values.slice(0, 5));
  });
});

describe('sequential stopping (repeat: auto)', () => {
  const plan = { min: 3, max: 10, threshold: 0.8, confidence: 0.95 };

  it('always runs min attempts', () => {
    expect(decideNextAttempt(0, 2, plan).action).toBe('continue');
  });

  it('with threshold 1 stops at min after min passes, and on the first failure after min', () => {
    const strict = { ...plan, threshold: 1 };
    expect(decideNextAttempt(3, 3, strict)).toMatchObject({
      action: 'stop',
      reason: 'decided',
      passes: true,
    });
    expect(decideNextAttempt(2, 3, strict)).toMatchObject({
      action: 'stop',
      reason: 'decided',
      passes: false,
    });
  });

  it('keeps a flaky case going while its interval straddles the threshold, up to max', () => {
    expect(decideNextAttempt(2, 4, plan).action).toBe('continue');
    expect(decideNextAttempt(5, 10, plan)).toMatchObject({ action: 'stop', reason: 'max', passes: false });
  });

  it('decides a clear failure early: 0/4 is below 0.8 even at the per-look 99.4 %', () => {
    expect(decideNextAttempt(0, 3, plan).action).toBe('continue');
    expect(decideNextAttempt(0, 4, plan)).toMatchObject({ action: 'stop', reason: 'decided', passes: false });
  });

  it('spreads the error over the looks (Bonferroni) and rejects a bad plan', () => {
    expect(perLookConfidence(plan)).toBeCloseTo(1 - 0.05 / 8, 12);
    expect(() => decideNextAttempt(0, 0, { ...plan, min: 5, max: 4 })).toThrow(
      'max (4) must be at least min (5)',
    );
    expect(() => decideNextAttempt(0, 0, { ...plan, threshold: 2 })).toThrow(
      'threshold must be between 0 and 1, got 2',
    );
  });
});
