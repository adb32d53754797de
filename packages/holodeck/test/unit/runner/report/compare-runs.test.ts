import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../../../src/runner/report/compare-runs.js';
import { renderComparison } from '../../../../src/runner/report/render-comparison.js';
import { parseRunReport } from '../../../../src/runner/report/run-report-schema.js';
import { writeReport } from '../../../../src/runner/report/write-report.js';
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

/** A case run `total` times, the first `passes` attempts passing with `good`, the rest with `bad`. */
function repeated(name: string, passes: number, total: number, good = [bleu(0.8)], bad = [bleu(0.5)]) {
  return testCase(
    name,
    Array.from({ length: total }, (_, index) =>
      attempt({ attempt: index + 1, metrics: index < passes ? good : bad }),
    ),
  );
}

const baseline = runReport(
  [
    repeated('refund-policy', 3, 3, [bleu(0.8), judge('helpfulness', 0.9)]),
    passingCase('shipping-times'),
    repeated('greeting', 0, 3, [judge('tone', 0.8)], [judge('tone', 0.3)]),
    erroredCase('cancel', 'API error 529'),
    failingCase('still-failing', [bleu(0.7), toolCalled('lookup_order', false)]),
    repeated('flaky', 2, 3),
    passingCase('retired'),
  ],
  { run_id: 'base-1' },
);
const current = runReport([
  repeated('refund-policy', 0, 3, [bleu(0.8)], [bleu(0.5), judge('helpfulness', 0.95)]),
  erroredCase('shipping-times', 'Agent run timed out after 60 s'),
  repeated('greeting', 3, 3, [judge('tone', 0.8)]),
  passingCase('cancel'),
  failingCase('still-failing', [bleu(0.4), toolCalled('lookup_order', true)]),
  repeated('flaky', 1, 3),
  passingCase('brand-new'),
]);

describe('compareRuns', () => {
  const comparison = compareRuns(current, baseline);
  const byName = (name: string) => comparison.cases.find((entry) => entry.name === name);

  it('calls a case regressed or improved only when the interval of its change excludes 0', () => {
    expect(comparison.cases.map((entry) => [entry.name, entry.change])).toEqual([
      ['refund-policy', 'regressed'],
      ['shipping-times', 'not-compared'],
      ['greeting', 'improved'],
      ['cancel', 'not-compared'],
      ['still-failing', 'unchanged'],
      ['flaky', 'unchanged'],
      ['brand-new', 'new'],
      ['retired', 'removed'],
    ]);
    expect(comparison.counts).toEqual({
      regressed: 1,
      improved: 1,
      unchanged: 2,
      new: 1,
      removed: 1,
      'not-compared': 2,
    });
    // 3/3 → 0/3: Newcombe's interval of −1 lies wholly below 0.
    const refund = byName('refund-policy')?.statistics;
    expect(refund).toMatchObject({
      baseline: { passed: 3, finished: 3 },
      current: { passed: 0, finished: 3 },
    });
    expect(refund?.delta.estimate).toBe(-1);
    expect(refund?.delta.upper).toBeLessThan(0);
    expect(refund?.pValue).toBeCloseTo(0.1, 12);
    // 2/3 → 1/3 is no significant change, with the numbers.
    const flaky = byName('flaky')?.statistics;
    expect(flaky?.delta.lower).toBeLessThan(0);
    expect(flaky?.delta.upper).toBeGreaterThan(0);
    expect(flaky?.outcome).toBe('loss');
    expect(byName('shipping-times')).toMatchObject({
      baselineStatus: 'pass',
      currentStatus: 'error',
      notComparedReason: 'errored in this run',
    });
    expect(byName('cancel')?.notComparedReason).toBe('errored in the baseline');
  });

  it('compares the suite only on the cases both runs finished, with a seeded paired bootstrap', () => {
    expect(comparison).toMatchObject({ baselineRunId: 'base-1', compared: 4, confidence: 0.95 });
    // Of refund-policy, greeting, still-failing and flaky: 2 passed before (refund, flaky at 2/3 < 1
    // does not pass: min_pass_rate 1) → 1 now (greeting).
    expect(comparison.baselinePassRate).toBe(0.25);
    expect(comparison.currentPassRate).toBe(0.25);
    const { suite } = comparison;
    expect(suite).toMatchObject({
      cases: 4,
      wins: 1,
      losses: 2,
      ties: 1,
      mcnemar: null,
      verdictBasis: 'pooled-newcombe',
    });
    expect(suite.baselinePassRate).toBeCloseTo(5 / 10, 12);
    expect(suite.currentPassRate).toBeCloseTo(4 / 10, 12);
    expect(suite.delta).toMatchObject({ seed: 20, resamples: 2000, method: 'paired-bootstrap-percentile' });
    expect(compareRuns(current, baseline).suite.delta).toEqual(suite.delta);
    // Holm over the 4 compared cases: adjusted ≥ raw.
    for (const entry of comparison.cases)
      if (entry.statistics)
        expect(entry.statistics.holmPValue).toBeGreaterThanOrEqual(entry.statistics.pValue);
  });

  it('single attempts: a flip is no significant change per case, McNemar judges the suite', () => {
    const names = Array.from({ length: 12 }, (_, index) => `case-${index}`);
    const before = runReport(names.map((name) => passingCase(name)));
    const after = runReport(
      names.map((name, index) => (index < 10 ? failingCase(name, [bleu(0.2)]) : passingCase(name))),
    );
    const result = compareRuns(after, before);
    expect(result.counts.regressed).toBe(0);
    expect(result.counts.unchanged).toBe(12);
    expect(result.suite.mcnemar).toEqual({ baselineOnly: 10, currentOnly: 0, pValue: 2 / 1024 });
    expect(result.suite).toMatchObject({
      verdict: 'regressed',
      verdictBasis: 'mcnemar',
      losses: 10,
      ties: 2,
    });
    expect(result.suite.chance.expectedFalseRegressions).toBeCloseTo(0.3, 12);
    // One flip out of 12 is noise.
    const noise = runReport(
      names.map((name, index) => (index === 0 ? failingCase(name, [bleu(0.2)]) : passingCase(name))),
    );
    expect(compareRuns(noise, before).suite.verdict).toBe('no-significant-change');
  });

  it('matches metrics by case and metric name, with score deltas and pass/fail flips', () => {
    const metrics = byName('refund-policy')?.metrics ?? [];
    expect(metrics).toHaveLength(2);
    expect(metrics[0]).toMatchObject({ name: 'bleu', change: 'newly-failing', currentScore: 0.5 });
    expect(metrics[0]?.baselineScore).toBeCloseTo(0.8, 12);
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
  it('says what was compared first, then the suite change, then one line per notable case', () => {
    const lines = renderComparison(compareRuns(current, baseline), { color: false }).split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'Compared with baseline run base-1:',
      '  note compared only on the 4 cases both runs finished (left out: shipping-times: errored in this run; cancel: errored in the baseline)',
    ]);
    expect(lines[2]).toBe(
      '  1 regressed · 1 improved · 2 no significant change · 1 new · 1 removed · 2 not compared · pass rate 25% → 25% on the 4 compared cases',
    );
    expect(lines[3]).toMatch(
      /^ {2}attempts 50% → 40%: −10 points \[−\d+(\.\d)?, \+\d+(\.\d)?\] at 95% \(paired bootstrap over cases, seed 20\) · 1 win, 2 losses, 1 tie · suite: no significant change by the pooled attempts \(under 10 cases\)$/,
    );
    expect(lines).toContain(
      '  REGRESSED     refund-policy   3/3 → 0/3, −100 points [−100, −20.6] at 95%                     newly failing: bleu 0.8 → 0.5 (-0.3)',
    );
    expect(lines.find((line) => line.includes(' flaky '))).toMatch(
      /^ {2}NO CHANGE {5}flaky {11}2\/3 → 1\/3, −33\.3 points \[.*\] at 95%: not significant/,
    );
    expect(lines.find((line) => line.includes('NOT COMPARED  shipping-times'))).toBe(
      '  NOT COMPARED  shipping-times  errored in this run',
    );
  });

  it('colours regressions red and improvements green when color is true', () => {
    const text = renderComparison(compareRuns(current, baseline), { color: true });
    expect(text).toContain('\u001b[31mREGRESSED   \u001b[39m');
    expect(text).toContain('\u001b[32mIMPROVED    \u001b[39m');
  });
});

describe('the comparison in the JSON report', () => {
  it('keeps per-case intervals, Fisher and Holm p-values and the suite figures, and loads back', () => {
    const text = writeReport(current, 'json', compareRuns(current, baseline));
    const report = parseRunReport(text, 'report.json');
    expect(report.comparison).toMatchObject({
      baseline_run_id: 'base-1',
      confidence: 0.95,
      compared_cases: 4,
      suite: { wins: 1, losses: 2, ties: 1, mcnemar: null, verdict: 'no-significant-change' },
    });
    expect(report.comparison?.suite.delta).toMatchObject({ seed: 20, resamples: 2000, estimate: -0.1 });
    const refund = report.comparison?.cases.find((entry) => entry.name === 'refund-policy');
    expect(refund).toMatchObject({ change: 'regressed', p_value: 0.1, outcome: 'loss' });
    expect(refund?.holm_p_value).toBeGreaterThanOrEqual(0.1);
    expect(report.comparison?.cases.find((entry) => entry.name === 'cancel')).toEqual({
      name: 'cancel',
      change: 'not-compared',
      not_compared_reason: 'errored in the baseline',
    });
  });

  it('names a changed suite among the differences', () => {
    const before = runReport([passingCase('a')], {
      agent: { ...runReport([]).agent, suite_hash: `sha256:${'1'.repeat(64)}` },
    });
    const after = runReport([passingCase('a')], {
      agent: { ...runReport([]).agent, suite_hash: `sha256:${'2'.repeat(64)}` },
    });
    expect(compareRuns(after, before).differences).toEqual([
      'the suite changed (test cases, metrics or thresholds): 1111111 → 2222222',
    ]);
  });
});
