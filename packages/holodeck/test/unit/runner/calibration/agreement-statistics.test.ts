import { describe, expect, it } from 'vitest';
import {
  agreementStatistics,
  confusionOf,
  selfConsistency,
  type Verdict,
} from '../../../../src/runner/calibration/agreement-statistics.js';

/** `n` pairs of (human, judge). */
function pairs(n: number, human: Verdict, judge: Verdict) {
  return Array.from({ length: n }, () => ({ human, judge }));
}

describe('agreement of a judge with human labels', () => {
  // The worked examples of Cohen's kappa in Wikipedia's article (rows rater A, columns rater B):
  // 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no gives p_o 0.7, p_e 0.5, kappa 0.4.
  it('reproduces the published kappa of 0.4 (p_o 0.7, p_e 0.5) and its confusion matrix', () => {
    const matrix = confusionOf([
      ...pairs(20, 'pass', 'pass'),
      ...pairs(5, 'pass', 'fail'),
      ...pairs(10, 'fail', 'pass'),
      ...pairs(15, 'fail', 'fail'),
    ]);
    expect(matrix).toEqual({ true_pass: 20, false_fail: 5, false_pass: 10, true_fail: 15 });
    const statistics = agreementStatistics(matrix, 0.95);
    expect(statistics.judged).toBe(50);
    expect(statistics.kappa.estimate).toBeCloseTo(0.4, 12);
    expect(statistics.agreement?.estimate).toBeCloseTo(0.7, 12);
    expect(statistics.base_rate?.estimate).toBeCloseTo(0.5, 12);
    expect(statistics.judge_pass_rate?.estimate).toBeCloseTo(0.6, 12);
    expect(statistics.false_pass_rate?.estimate).toBeCloseTo(10 / 25, 12);
    expect(statistics.false_fail_rate?.estimate).toBeCloseTo(5 / 25, 12);
    // The interval straddles its estimate, within [-1, 1], at the stated level.
    const interval = statistics.kappa.interval;
    expect(interval?.confidence).toBe(0.95);
    expect(interval?.lower).toBeLessThan(0.4);
    expect(interval?.upper).toBeGreaterThan(0.4);
  });

  it("reproduces the article's two tables of equal agreement and different kappa (0.1304 and 0.2593)", () => {
    const balanced = agreementStatistics(
      { true_pass: 45, false_fail: 15, false_pass: 25, true_fail: 15 },
      0.95,
    );
    const skewed = agreementStatistics({ true_pass: 25, false_fail: 35, false_pass: 5, true_fail: 35 }, 0.95);
    expect(balanced.agreement?.estimate).toBeCloseTo(0.6, 12);
    expect(skewed.agreement?.estimate).toBeCloseTo(0.6, 12);
    expect(balanced.kappa.estimate).toBeCloseTo(0.1304, 4);
    expect(skewed.kappa.estimate).toBeCloseTo(0.2593, 4);
  });

  it('gives the Wilson interval of each rate: 1 false pass of 4 human fails is [4.6%, 69.9%] at 95%', () => {
    const statistics = agreementStatistics(
      { true_pass: 5, false_fail: 1, false_pass: 1, true_fail: 3 },
      0.95,
    );
    expect(statistics.false_pass_rate?.lower).toBeCloseTo(0.0456, 4);
    expect(statistics.false_pass_rate?.upper).toBeCloseTo(0.6994, 4);
    expect(statistics.false_pass_rate?.method).toBe('wilson');
  });

  it('leaves kappa undefined when both raters gave every example the same verdict, and a rate with no base null', () => {
    const statistics = agreementStatistics(
      { true_pass: 6, false_fail: 0, false_pass: 0, true_fail: 0 },
      0.95,
    );
    expect(statistics.kappa).toEqual({ estimate: null, standard_error: null, interval: null });
    expect(statistics.false_pass_rate).toBeNull();
    expect(statistics.false_fail_rate?.estimate).toBe(0);
  });

  it('has no figures without examples', () => {
    const statistics = agreementStatistics(
      { true_pass: 0, false_fail: 0, false_pass: 0, true_fail: 0 },
      0.95,
    );
    expect(statistics).toMatchObject({
      judged: 0,
      agreement: null,
      base_rate: null,
      kappa: { estimate: null },
    });
  });
});

describe('self-consistency of repeated judgements', () => {
  it('counts the examples that got both verdicts, leaving out those with fewer judgements', () => {
    const consistency = selfConsistency(
      [['pass', 'pass', 'pass'], ['pass', 'fail', 'pass'], ['fail', 'fail', 'fail'], ['fail']],
      3,
      0.95,
    );
    expect(consistency).toMatchObject({ samples: 3, examples: 3, flipped: 1 });
    expect(consistency.flip_rate?.estimate).toBeCloseTo(1 / 3, 12);
  });

  it('has no flip rate with one sample', () => {
    expect(selfConsistency([['pass'], ['fail']], 1, 0.95)).toEqual({
      samples: 1,
      examples: 2,
      flipped: 0,
      flip_rate: null,
    });
  });
});
