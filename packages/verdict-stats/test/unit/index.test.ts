import { describe, expect, it } from 'vitest';
import * as stats from '../../src/index.js';

describe('verdict-stats exports', () => {
  it('exports exactly its public functions', () => {
    expect(Object.keys(stats).sort()).toEqual([
      'binomialHalfCdf',
      'checkSequentialPlan',
      'clusterPassRateInterval',
      'cohenKappa',
      'cohenKappaOfLabels',
      'decideNextAttempt',
      'differenceInterval',
      'expectedFalseRegressions',
      'fisherExact',
      'holmAdjust',
      'mcnemarExact',
      'normalQuantile',
      'pairedBootstrapDifference',
      'passRateInterval',
      'perLookConfidence',
      'seededRandom',
      'twoSidedZ',
      'wilsonScoreInterval',
    ]);
  });
});
