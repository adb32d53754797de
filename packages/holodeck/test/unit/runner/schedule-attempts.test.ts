import { describe, expect, it } from 'vitest';
import type { PreparedCase } from '../../../src/runner/prepare-suite.js';
import { repeatPlan } from '../../../src/runner/repeat-plan.js';
import { scheduleAttempts } from '../../../src/runner/schedule-attempts.js';
import { attempt, bleu } from './report/report-builder.js';

function prepared(
  name: string,
  index: number,
  repeat: PreparedCase['config']['repeat'],
  minPassRate?: number,
): PreparedCase {
  return {
    index,
    config: {
      name,
      input: 'hi',
      repeat,
      ...(minPassRate === undefined ? {} : { min_pass_rate: minPassRate }),
    },
    metrics: [],
    turnMetrics: [],
    source: { file: '/agents/a/agent.yaml', path: ['test_cases', index] },
  };
}

/** A scripted outcome per case and attempt number. */
function runner(outcomes: Record<string, (attempt: number) => boolean>, cost = 0.01) {
  const calls: string[] = [];
  return {
    calls,
    runOne: async (testCase: PreparedCase, number: number) => {
      calls.push(`${testCase.config.name}#${number}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
      const passed = outcomes[testCase.config.name]?.(number) ?? true;
      return attempt({ attempt: number, metrics: [bleu(passed ? 0.9 : 0.1)], cost_usd: cost });
    },
  };
}

const base = (cases: PreparedCase[]) => ({
  cases,
  planOf: (testCase: PreparedCase) => repeatPlan(undefined, testCase.config.repeat, undefined),
  concurrency: 3,
  confidence: 0.95,
  signal: new AbortController().signal,
});

describe('scheduleAttempts with repeat: auto', () => {
  it('stops a deterministic case at min and keeps a flaky one going while undecided', async () => {
    const { runOne } = runner({ steady: () => true, flaky: (n) => n % 2 === 1 });
    const result = await scheduleAttempts({
      ...base([prepared('steady', 0, 'auto'), prepared('flaky', 1, 'auto', 0.8)]),
      runOne,
    });
    const [steady, flaky] = result.reports;
    expect(steady?.attempts).toHaveLength(3);
    expect(steady?.repeat_stop).toEqual({
      rule: 'decided',
      attempts: 3,
      min: 3,
      max: 10,
      reason: 'decided after 3: ≥ 100% with 95%',
    });
    expect(flaky?.attempts).toHaveLength(10);
    expect(flaky?.repeat_stop?.rule).toBe('max');
    expect(flaky?.repeat_stop?.reason).toBe(
      'stopped at the cap of 10: still undecided at 95% (5/10 passed, needs 80%)',
    );
    expect(flaky?.attempts.map((entry) => entry.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('decides a clearly failing case early and honours min/max bounds', async () => {
    const { runOne } = runner({ broken: () => false });
    const result = await scheduleAttempts({
      ...base([prepared('broken', 0, { auto: { min: 4, max: 6 } }, 0.8)]),
      runOne,
    });
    expect(result.reports[0]?.attempts).toHaveLength(4);
    expect(result.reports[0]?.repeat_stop?.reason).toBe('decided after 4: < 80% with 95%');
    expect(result.reports[0]?.passed).toBe(false);
  });

  it('keeps fixed repeats as they were', async () => {
    const { runOne, calls } = runner({});
    const result = await scheduleAttempts({ ...base([prepared('fixed', 0, 2)]), runOne });
    expect(calls.sort()).toEqual(['fixed#1', 'fixed#2']);
    expect(result.reports[0]?.repeat_stop).toBeUndefined();
  });
});

describe('scheduleAttempts with a budget', () => {
  it('starts no attempt once the spend reaches --max-cost; the cases left are stopped', async () => {
    const { runOne, calls } = runner({}, 0.3);
    const cases = [0, 1, 2, 3, 4].map((index) => prepared(`case-${index}`, index, 1));
    const result = await scheduleAttempts({ ...base(cases), concurrency: 1, runOne, maxCostUsd: 0.5 });
    expect(calls).toEqual(['case-0#1', 'case-1#1']);
    expect(result).toMatchObject({ budgetReached: true });
    expect(result.spentUsd).toBeCloseTo(0.6, 12);
    expect(result.reports.map((report) => report.state)).toEqual([
      'passing',
      'passing',
      'stopped',
      'stopped',
      'stopped',
    ]);
  });
});
