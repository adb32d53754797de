import { describe, expect, it } from 'vitest';
import { summarise } from '../../../../src/runner/build-case-report.js';
import { compareRuns } from '../../../../src/runner/report/compare-runs.js';
import { comparisonJson } from '../../../../src/runner/report/comparison-json.js';
import { describeCostChange } from '../../../../src/runner/report/render-comparison.js';
import { renderTotals } from '../../../../src/runner/report/render-summary.js';
import { writeMarkdownReport } from '../../../../src/runner/report/write-markdown-report.js';
import { attempt, bleu, runReport, testCase } from './report-builder.js';

const OLLAMA =
  'ollama runs llama3.2 on your own machine, so it has no per-token price; set pricing: in agent.yaml to count one';

describe('the cost of a run', () => {
  it('an unknown cost is null with the reason, in the summary and the terminal line', () => {
    const cases = [
      testCase('a', [attempt({ cost_usd: null, cost_unknown_reason: OLLAMA })]),
      testCase('b', [attempt({ cost_usd: null, cost_unknown_reason: OLLAMA })]),
    ];
    const summary = summarise(cases, 1000);
    expect(summary).toMatchObject({
      cost_usd: null,
      cost_unknown_reason: OLLAMA,
      cost_per_passed_case_usd: null,
    });
    expect(renderTotals(summary, { color: false })).toMatch(
      new RegExp(`· cost unknown \\(${OLLAMA.replace(/[().]/g, '\\$&')}\\)$`),
    );
  });

  it('a known cost is the sum over every attempt, with the cost per passed case', () => {
    const cases = [
      testCase('a', [attempt({ cost_usd: 0.01 }), attempt({ attempt: 2, cost_usd: 0.02 })]),
      testCase('b', [attempt({ cost_usd: 0.03, metrics: [bleu(0.1)] })]),
    ];
    const summary = summarise(cases, 1000);
    expect(summary.cost_usd).toBeCloseTo(0.06, 12);
    expect(summary.cost_per_passed_case_usd).toBeCloseTo(0.06, 12);
    expect(summary.cost_unknown_reason).toBeUndefined();
    expect(renderTotals(summary, { color: false })).toMatch(/· \$0\.0600 \(\$0\.0600 per passed case\)$/);
  });
});

describe("the judge's cost in the summary line", () => {
  const judged = (judge: number | null, calls: { billed: number; cached: number }, reason?: string) =>
    attempt({
      cost_usd: 0.01,
      judge_cost_usd: judge,
      judge_calls: calls,
      ...(reason ? { judge_cost_unknown_reason: reason } : {}),
    });

  it('shows agent, judge (calls, cached ones) and the total when the judge was called', () => {
    const summary = summarise(
      [
        testCase('a', [
          judged(0.002, { billed: 2, cached: 1 }),
          { ...judged(0.001, { billed: 1, cached: 0 }), attempt: 2 },
        ]),
      ],
      1000,
    );
    expect(summary).toMatchObject({ cost_usd: 0.02, judge_cost_usd: 0.003, total_cost_usd: 0.023 });
    expect(renderTotals(summary, { color: false })).toMatch(
      /· agent \$0\.0200 \(\$0\.0200 per passed case\) · judge \$0\.0030 \(4 calls, 1 cached\) · total \$0\.0230$/,
    );
  });

  it('says why the judge cost is unknown, and the total with it; without judge calls it shows the agent cost alone', () => {
    const unknown = summarise(
      [testCase('a', [judged(null, { billed: 1, cached: 0 }, 'no price for x')])],
      1000,
    );
    expect(renderTotals(unknown, { color: false })).toMatch(
      /· agent \$0\.0100 \(\$0\.0100 per passed case\) · judge cost unknown \(no price for x\) \(1 call\) · total unknown$/,
    );
    const none = summarise([testCase('a', [judged(0, { billed: 0, cached: 0 })])], 1000);
    expect(none.total_cost_usd).toBe(0.01);
    expect(renderTotals(none, { color: false })).toMatch(/· \$0\.0100 \(\$0\.0100 per passed case\)$/);
  });
});

describe('the cost in a comparison', () => {
  it('sets the cost of the cases both runs finished side by side, in all and per passed case', () => {
    const baseline = runReport([
      testCase('a', [attempt({ cost_usd: 0.01 })]),
      testCase('b', [attempt({ cost_usd: 0.01 })]),
    ]);
    const current = runReport(
      [
        testCase('a', [attempt({ cost_usd: 0.02 })]),
        testCase('b', [attempt({ cost_usd: 0.01, metrics: [bleu(0.1)] })]),
        // New in this run: not one of the compared cases, so not in the figures.
        testCase('c', [attempt({ cost_usd: 5 })]),
      ],
      { run_id: 'current' },
    );
    const comparison = compareRuns(current, baseline);
    expect(comparison.cost).toEqual({
      baseline: 0.02,
      current: 0.03,
      baselinePerPassed: 0.01,
      currentPerPassed: 0.03,
    });
    expect(describeCostChange(comparison)).toBe(
      'cost of the 2 compared cases $0.0200 → $0.0300 (+$0.0100, +50%); per passed case $0.0100 → $0.0300 (+$0.0200, +200%)',
    );
    expect(writeMarkdownReport(current, comparison)).toContain(
      'cost of the 2 compared cases $0.0200 → $0.0300 (+$0.0100, +50%); per passed case',
    );
    const json = comparisonJson(comparison);
    expect(json.cost).toEqual({
      baseline_usd: 0.02,
      current_usd: 0.03,
      delta_usd: 0.01,
      baseline_per_passed_case_usd: 0.01,
      current_per_passed_case_usd: 0.03,
      delta_per_passed_case_usd: 0.02,
    });
    expect(json.cases.find((entry) => entry.name === 'a')?.cost_per_attempt_delta_usd).toBe(0.01);
  });

  it('an unknown side says so instead of a delta', () => {
    const baseline = runReport([testCase('a', [attempt({ cost_usd: null })])]);
    const current = runReport([testCase('a', [attempt({ cost_usd: 0.02 })])], { run_id: 'current' });
    const comparison = compareRuns(current, baseline);
    expect(describeCostChange(comparison)).toBe(
      'cost of the 1 compared case unknown → $0.0200; per passed case unknown → $0.0200',
    );
    expect(comparisonJson(comparison).cost?.delta_usd).toBeNull();
  });
});
