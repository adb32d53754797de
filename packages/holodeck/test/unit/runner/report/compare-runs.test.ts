import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../../../src/runner/report/compare-runs.js';
import { renderComparison } from '../../../../src/runner/report/render-comparison.js';
import {
  attempt,
  bleu,
  erroredCase,
  failingCase,
  judge,
  passingCase,
  runReport,
  testCase,
  toolCalled,
} from './report-builder.js';

const baseline = runReport(
  [
    passingCase('refund-policy', [bleu(0.8), judge('helpfulness', 0.9)]),
    passingCase('shipping-times'),
    failingCase('greeting', [judge('tone', 0.3)]),
    erroredCase('cancel', 'API error 529'),
    failingCase('still-failing', [bleu(0.7), toolCalled('lookup_order', false)]),
    passingCase('retired'),
  ],
  { run_id: 'base-1' },
);
const current = runReport([
  failingCase('refund-policy', [bleu(0.5), judge('helpfulness', 0.95)]),
  erroredCase('shipping-times', 'Agent run timed out after 60 s'),
  passingCase('greeting', [judge('tone', 0.8)]),
  passingCase('cancel'),
  failingCase('still-failing', [bleu(0.4), toolCalled('lookup_order', true)]),
  passingCase('brand-new'),
]);

describe('compareRuns', () => {
  const comparison = compareRuns(current, baseline);
  const byName = (name: string) => comparison.cases.find((entry) => entry.name === name);

  it('classifies each case: regressed, improved, unchanged, new, removed', () => {
    expect(comparison.cases.map((entry) => [entry.name, entry.change])).toEqual([
      ['refund-policy', 'regressed'],
      ['shipping-times', 'regressed'],
      ['greeting', 'improved'],
      ['cancel', 'improved'],
      ['still-failing', 'unchanged'],
      ['brand-new', 'new'],
      ['retired', 'removed'],
    ]);
    expect(comparison.counts).toEqual({ regressed: 2, improved: 2, unchanged: 1, new: 1, removed: 1 });
    expect(byName('shipping-times')).toMatchObject({ baselineStatus: 'pass', currentStatus: 'error' });
    expect(comparison).toMatchObject({
      baselineRunId: 'base-1',
      baselinePassRate: 0.5,
      currentPassRate: 0.5,
    });
  });

  it('matches metrics by case and metric name, with score deltas and pass/fail flips', () => {
    const metrics = byName('refund-policy')?.metrics ?? [];
    expect(metrics).toHaveLength(2);
    expect(metrics[0]).toMatchObject({
      name: 'bleu',
      change: 'newly-failing',
      baselineScore: 0.8,
      currentScore: 0.5,
    });
    expect(metrics[0]?.delta).toBeCloseTo(-0.3);
    expect(metrics[1]).toMatchObject({ name: 'helpfulness', change: 'unchanged', baselinePassed: true });
    expect(metrics[1]?.delta).toBeCloseTo(0.05);
    expect(byName('still-failing')?.metrics.map((metric) => [metric.name, metric.change])).toEqual([
      ['bleu', 'newly-failing'],
      ['tool_called', 'newly-passing'],
    ]);
  });

  it('marks metrics of an errored run as removed, and metrics of a new case as new', () => {
    expect(byName('shipping-times')?.metrics).toEqual([
      { name: 'bleu', change: 'removed', baselineScore: 0.82, baselinePassed: true },
    ]);
    expect(byName('brand-new')?.metrics).toEqual([
      { name: 'bleu', change: 'new', currentScore: 0.82, currentPassed: true },
    ]);
  });

  it('averages a metric over repeated attempts; it passes only when it passed in each', () => {
    const repeated = testCase(
      'refund-policy',
      [attempt({ attempt: 1, metrics: [bleu(0.9)] }), attempt({ attempt: 2, metrics: [bleu(0.5)] })],
      { min_pass_rate: 0.5 },
    );
    const result = compareRuns(runReport([repeated]), runReport([passingCase('refund-policy', [bleu(0.8)])]));
    expect(result.cases[0]?.change).toBe('unchanged');
    expect(result.cases[0]?.metrics[0]).toMatchObject({ change: 'newly-failing', currentScore: 0.7 });
  });
});

describe('renderComparison', () => {
  it('prints the counts and one line per changed case, without colour codes when color is false', () => {
    expect(renderComparison(compareRuns(current, baseline), { color: false })).toBe(
      [
        'Compared with baseline run base-1:',
        '  2 regressed · 2 improved · 1 unchanged · 1 new · 1 removed · pass rate 50% → 50%',
        '  REGRESSED  refund-policy   PASS → FAIL   newly failing: bleu 0.8 → 0.5 (-0.3)',
        '  REGRESSED  shipping-times  PASS → ERROR',
        '  IMPROVED   greeting        FAIL → PASS   newly passing: tone 0.3 → 0.8 (+0.5)',
        '  IMPROVED   cancel          ERROR → PASS',
        '  UNCHANGED  still-failing   FAIL → FAIL   newly failing: bleu 0.7 → 0.4 (-0.3); newly passing: tool_called 0 → 1 (+1)',
        '  NEW        brand-new       new: PASS',
        '  REMOVED    retired         was: PASS',
        '',
      ].join('\n'),
    );
  });

  it('colours regressions red and improvements green when color is true', () => {
    const text = renderComparison(compareRuns(current, baseline), { color: true });
    expect(text).toContain('\u001b[31mREGRESSED\u001b[39m');
    expect(text).toContain('\u001b[32mIMPROVED ');
  });
});
