import { describe, expect, it } from 'vitest';
import {
  binomialHalfCdf,
  clusterPassRateInterval,
  cohenKappa,
  cohenKappaOfLabels,
  differenceInterval,
  expectedFalseRegressions,
  fisherExact,
  holmAdjust,
  mcnemarExact,
  normalQuantile,
  passRateInterval,
  twoSidedZ,
  wilsonScoreInterval,
} from '../../src/index.js';

const bounds = (interval: { lower: number; upper: number }) => [interval.lower, interval.upper];

describe('normal quantiles', () => {
  it('match the standard normal table (Abramowitz & Stegun, Table 26.5)', () => {
    expect(twoSidedZ(0.95)).toBeCloseTo(1.959964, 6);
    expect(twoSidedZ(0.9)).toBeCloseTo(1.644854, 6);
    expect(twoSidedZ(0.99)).toBeCloseTo(2.575829, 6);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 6);
  });
});

describe('Wilson score interval', () => {
  // R. G. Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven
  // methods", Statistics in Medicine 17 (1998) 857–872, Table I, method 3 (score, no continuity correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i/%i is [%f, %f] (Newcombe 1998, Table I)', (successes, trials, lower, upper) => {
    const interval = wilsonScoreInterval(successes, trials);
    expect(interval.lower).toBeCloseTo(lower, 4);
    expect(interval.upper).toBeCloseTo(upper, 4);
    expect(interval.method).toBe('wilson');
  });

  it('rejects counts that are not counts, and a confidence outside (0, 1)', () => {
    expect(() => wilsonScoreInterval(3, 2)).toThrow('successes (3) exceed trials (2)');
    expect(() => wilsonScoreInterval(-1, 2)).toThrow('successes must be a whole number ≥ 0, got -1');
    expect(() => wilsonScoreInterval(1, 2, 1)).toThrow(
      'confidence must be between 0 and 1 (exclusive), got 1',
    );
  });
});

describe('pass-rate interval', () => {
  it('uses the rule of three (exact form 0.05^(1/n)) when no attempt failed (Hanley & Lippman-Hand 1983)', () => {
    // 1 − 3/n is the rule's approximation of 0.05^(1/n): 0.9000 against 0.9050 at n = 30, 0.70 against 0.74 at 10.
    expect(passRateInterval(30, 30).lower).toBeCloseTo(0.905, 4);
    expect(Math.abs(passRateInterval(30, 30).lower - (1 - 3 / 30))).toBeLessThan(0.006);
    expect(passRateInterval(100, 100).lower).toBeCloseTo(0.9705, 4);
    expect(passRateInterval(30, 30)).toMatchObject({ estimate: 1, upper: 1, method: 'rule-of-three' });
    // Where 1 − 3/n would be 0 or below, the exact bound still says something.
    expect(passRateInterval(3, 3).lower).toBeCloseTo(0.3684, 4);
    expect(passRateInterval(1, 1).lower).toBeCloseTo(0.05, 12);
  });

  it('mirrors it when every attempt failed: [0, 1 − 0.05^(1/n)]', () => {
    expect(passRateInterval(0, 30)).toMatchObject({ estimate: 0, lower: 0, method: 'rule-of-three' });
    expect(passRateInterval(0, 30).upper).toBeCloseTo(0.095, 4);
  });

  it('is Wilson in between, and [0, 1] with no finished attempt', () => {
    expect(passRateInterval(81, 263)).toEqual(wilsonScoreInterval(81, 263));
    expect(bounds(passRateInterval(0, 0))).toEqual([0, 1]);
  });
});

describe('cluster-robust suite interval', () => {
  it('with one attempt per case is Wilson at G − 1 effective attempts (CR1 of a mean of G Bernoullis)', () => {
    const clusters = [
      ...Array.from({ length: 30 }, () => ({ passes: 1, attempts: 1 })),
      ...Array.from({ length: 10 }, () => ({ passes: 0, attempts: 1 })),
    ];
    const interval = clusterPassRateInterval(clusters);
    expect(interval.estimate).toBe(0.75);
    expect(interval.effectiveAttempts).toBeCloseTo(39, 9);
    const wilson39 = wilsonScoreInterval(0, 1); // shape only; compare with the closed form below
    expect(wilson39.method).toBe('wilson');
    const z = twoSidedZ(0.95);
    const n = 39;
    const centre = (0.75 + (z * z) / (2 * n)) / (1 + (z * z) / n);
    const half = (z / (1 + (z * z) / n)) * Math.sqrt((0.75 * 0.25) / n + (z * z) / (4 * n * n));
    expect(interval.lower).toBeCloseTo(centre - half, 12);
    expect(interval.upper).toBeCloseTo(centre + half, 12);
    expect(interval.method).toBe('cluster-wilson');
  });

  it('is wider than the naive interval when cases are all-or-nothing (correlated attempts)', () => {
    const clusters = [
      ...Array.from({ length: 8 }, () => ({ passes: 5, attempts: 5 })),
      ...Array.from({ length: 2 }, () => ({ passes: 0, attempts: 5 })),
    ];
    const clustered = clusterPassRateInterval(clusters);
    const naive = wilsonScoreInterval(40, 50);
    expect(clustered.upper - clustered.lower).toBeGreaterThan(naive.upper - naive.lower);
    expect(clustered.effectiveAttempts).toBeLessThan(12);
  });

  it('counts each case once when every attempt passed, and is the plain interval for one case', () => {
    const allPassed = clusterPassRateInterval([
      { passes: 3, attempts: 3 },
      { passes: 3, attempts: 3 },
      { passes: 3, attempts: 3 },
      { passes: 3, attempts: 3 },
      { passes: 3, attempts: 3 },
    ]);
    expect(allPassed).toMatchObject({
      estimate: 1,
      upper: 1,
      effectiveAttempts: 5,
      method: 'cluster-rule-of-three',
    });
    expect(allPassed.lower).toBeCloseTo(0.05 ** (1 / 5), 12);
    expect(clusterPassRateInterval([{ passes: 2, attempts: 5 }])).toMatchObject(wilsonScoreInterval(2, 5));
    expect(clusterPassRateInterval([{ passes: 0, attempts: 0 }])).toMatchObject({ lower: 0, upper: 1 });
  });
});

describe('difference of two independent proportions (Newcombe hybrid score)', () => {
  // R. G. Newcombe, "Interval estimation for the difference between independent proportions:
  // comparison of eleven methods", Statistics in Medicine 17 (1998) 873–890, Table II, method 10.
  it.each([
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
    [6, 7, 2, 7, 0.0582, 0.8062],
    [5, 56, 0, 29, -0.0381, 0.1926],
  ])('%i/%i − %i/%i is [%f, %f] (Newcombe 1998, Table II)', (a, m, b, n, lower, upper) => {
    const interval = differenceInterval(a, m, b, n);
    expect(interval.lower).toBeCloseTo(lower, 4);
    expect(interval.upper).toBeCloseTo(upper, 4);
  });
});

describe('exact McNemar test', () => {
  // Fagerland, Lydersen & Laake, BMC Medical Research Methodology 13:91 (2013): the airway
  // hyper-responsiveness example, b = 1, c = 7: exact conditional p = 0.070.
  it('gives p = 0.0703 for 1 vs 7 discordant pairs (Fagerland et al. 2013)', () => {
    expect(mcnemarExact(1, 7).pValue).toBeCloseTo(0.0703125, 7);
  });

  it('is 1 without discordant pairs and symmetric', () => {
    expect(mcnemarExact(0, 0).pValue).toBe(1);
    expect(mcnemarExact(3, 3).pValue).toBe(1);
    expect(mcnemarExact(7, 1).pValue).toBe(mcnemarExact(1, 7).pValue);
    expect(mcnemarExact(0, 10).pValue).toBeCloseTo(2 / 1024, 12);
  });

  it('does not underflow for thousands of pairs', () => {
    expect(binomialHalfCdf(1000, 2000)).toBeCloseTo(
      0.5 + 0.5 * (binomialHalfCdf(1000, 2000) - binomialHalfCdf(999, 2000)),
      9,
    );
    expect(mcnemarExact(900, 1100).pValue).toBeLessThan(1e-5);
    expect(mcnemarExact(900, 1100).pValue).toBeGreaterThan(0);
  });
});

describe("Fisher's exact test", () => {
  // Fisher (1935), the lady tasting tea: 3 of 4 cups right each way, two-sided p = 0.4857 (R's
  // fisher.test(matrix(c(3, 1, 1, 3), 2)) gives 0.4857).
  it('gives 0.4857 for the tea-tasting table', () => {
    expect(fisherExact(3, 4, 1, 4)).toBeCloseTo(0.485714, 6);
  });

  it('gives 2/C(6,3) = 0.1 for 3/3 against 0/3, and 1 for equal or empty samples', () => {
    expect(fisherExact(3, 3, 0, 3)).toBeCloseTo(0.1, 12);
    expect(fisherExact(2, 4, 2, 4)).toBeCloseTo(1, 12);
    expect(fisherExact(0, 0, 0, 0)).toBe(1);
    expect(() => fisherExact(2, 1, 0, 1)).toThrow('successes exceed trials');
  });
});

describe('Holm correction', () => {
  // The worked example of the Holm–Bonferroni method (Holm 1979): p = 0.01, 0.04, 0.03, 0.005 at
  // α = 0.05 rejects H1 and H4; adjusted values as R's p.adjust(p, "holm"): 0.03, 0.06, 0.06, 0.02.
  it('adjusts the textbook example', () => {
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    expect(adjusted[0]).toBeCloseTo(0.03, 12);
    expect(adjusted[1]).toBeCloseTo(0.06, 12);
    expect(adjusted[2]).toBeCloseTo(0.06, 12);
    expect(adjusted[3]).toBeCloseTo(0.02, 12);
    expect(adjusted.filter((p) => p <= 0.05)).toHaveLength(2);
  });

  it('caps at 1 and keeps an empty list empty', () => {
    expect(holmAdjust([0.5, 0.6])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
    expect(() => holmAdjust([1.5])).toThrow('p-values must be between 0 and 1, got 1.5');
  });
});

describe('false regressions by chance', () => {
  it('is m·(1 − c)/2 expected, one tail of a two-sided interval', () => {
    expect(expectedFalseRegressions(200, 0.95).expected).toBeCloseTo(5, 12);
    expect(expectedFalseRegressions(1, 0.95).atLeastOne).toBeCloseTo(0.025, 12);
    expect(expectedFalseRegressions(0).expected).toBe(0);
  });
});

describe("Cohen's kappa", () => {
  // SAS/STAT PROC FREQ, Getting Started "Agreement Study" (skin condition data, two
  // dermatologists): simple kappa 0.3449, ASE 0.0724, 95 % limits 0.2030 to 0.4868.
  it('matches the SAS PROC FREQ agreement study', () => {
    const result = cohenKappa([
      [10, 4, 1, 0],
      [5, 10, 12, 2],
      [2, 4, 12, 5],
      [0, 2, 6, 13],
    ]);
    expect(result.kappa).toBeCloseTo(0.3449, 4);
    expect(result.standardError).toBeCloseTo(0.0724, 4);
    expect(result.interval?.lower).toBeCloseTo(0.203, 4);
    expect(result.interval?.upper).toBeCloseTo(0.4868, 4);
  });

  // Wikipedia, "Cohen's kappa", worked example: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no: κ = 0.4.
  it('gives 0.4 for the worked yes/no example, from a table or from labels', () => {
    expect(
      cohenKappa([
        [20, 5],
        [10, 15],
      ]).kappa,
    ).toBeCloseTo(0.4, 12);
    const first = [...Array(25).fill('yes'), ...Array(25).fill('no')];
    const second = [
      ...Array(20).fill('yes'),
      ...Array(5).fill('no'),
      ...Array(10).fill('yes'),
      ...Array(15).fill('no'),
    ];
    expect(cohenKappaOfLabels(first, second).kappa).toBeCloseTo(0.4, 12);
  });

  it('is null (undefined) when both raters used one category only, and rejects bad tables', () => {
    expect(
      cohenKappa([
        [5, 0],
        [0, 0],
      ]),
    ).toMatchObject({ kappa: null, interval: null, observedAgreement: 1 });
    expect(() => cohenKappa([[1, 2]])).toThrow('the table must be square: 1 rows, a row of 2');
    expect(() => cohenKappa([[0]])).toThrow('kappa needs at least one rated item');
    expect(() => cohenKappaOfLabels(['a'], [])).toThrow(
      'the raters rated different numbers of items: 1 and 0',
    );
  });
});
