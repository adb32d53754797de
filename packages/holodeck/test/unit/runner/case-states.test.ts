import { describe, expect, it } from 'vitest';
import { buildCaseReport, summarise } from '../../../src/runner/build-case-report.js';
import type { PreparedCase } from '../../../src/runner/prepare-suite.js';
import type { CaseAttempt } from '../../../src/runner/report/run-report.js';
import { attempt, bleu, judge } from './report/report-builder.js';

function prepared(name: string, minPassRate?: number): PreparedCase {
  return {
    index: 0,
    config: {
      name,
      input: 'How long does a refund take?',
      ...(minPassRate === undefined ? {} : { min_pass_rate: minPassRate }),
    },
    metrics: [],
    turnMetrics: [],
    source: { file: '/agents/support/agent.yaml', path: ['test_cases', 0] },
  };
}

const pass = (n: number): CaseAttempt => attempt({ attempt: n, metrics: [bleu(0.9)] });
const fail = (n: number): CaseAttempt => attempt({ attempt: n, metrics: [bleu(0.3)] });
const judgeDown = (n: number): CaseAttempt =>
  attempt({
    attempt: n,
    passed: false,
    metrics: [{ ...judge('helpfulness', 0), error: 'judge request failed: 500 Internal Server Error' }],
  });

describe('case states', () => {
  it('passing, failing and flaky, with the pass rate and its interval over finished attempts', () => {
    expect(buildCaseReport(prepared('a'), [pass(1), pass(2), pass(3)])).toMatchObject({
      state: 'passing',
      passed: true,
      pass_rate: 1,
      finished_attempts: 3,
      pass_interval: { upper: 1, confidence: 0.95, method: 'rule-of-three' },
    });
    expect(buildCaseReport(prepared('b'), [fail(1), fail(2)])).toMatchObject({
      state: 'failing',
      passed: false,
    });
    const flaky = buildCaseReport(prepared('c', 0.5), [pass(1), fail(2), pass(3)], 3, 0.9);
    expect(flaky).toMatchObject({
      state: 'flaky',
      passed: true,
      pass_interval: { confidence: 0.9, method: 'wilson' },
    });
    expect(flaky.pass_rate).toBeCloseTo(2 / 3, 12);
  });

  it('a grader that could not run makes the case errored, not failed, with the reason', () => {
    const report = buildCaseReport(prepared('judged'), [pass(1), judgeDown(2), pass(3)]);
    expect(report).toMatchObject({
      state: 'errored',
      errored: true,
      passed: false,
      error: 'metric helpfulness could not run: judge request failed: 500 Internal Server Error',
      // The two graded attempts both passed: the pass rate is over them only.
      pass_rate: 1,
      finished_attempts: 2,
    });
  });

  it('a weight-0 metric that could not run decides nothing, so it does not error the case', () => {
    const reported = attempt({
      passed: true,
      metrics: [bleu(0.9), { ...judge('tone', 0), error: 'judge request failed: 500', weight: 0 }],
    });
    expect(buildCaseReport(prepared('reported'), [reported])).toMatchObject({
      state: 'passing',
      passed: true,
    });
  });

  it('an agent run that failed errors the case too', () => {
    const crashed = attempt({ attempt: 2, error: 'claude exited with code 1', passed: false, metrics: [] });
    expect(buildCaseReport(prepared('crash'), [pass(1), crashed])).toMatchObject({
      state: 'errored',
      error: 'claude exited with code 1',
    });
  });

  it('a case the interruption kept from finishing is stopped, never a failure', () => {
    const report = buildCaseReport(prepared('slow'), [fail(1)], 3);
    expect(report).toMatchObject({ state: 'stopped', interrupted: true, passed: false, errored: false });
    const summary = summarise([report, buildCaseReport(prepared('ok'), [pass(1)])], 1000);
    expect(summary).toMatchObject({
      total: 2,
      passed: 1,
      failed: 0,
      errored: 0,
      interrupted: 1,
      pass_rate: 1,
    });
    expect(summary.states).toEqual({ passing: 1, failing: 0, flaky: 0, errored: 0, stopped: 1 });
  });

  it('one attempt has no interval; the summary has a clustered one over finished attempts', () => {
    expect(buildCaseReport(prepared('once'), [pass(1)]).pass_interval).toBeNull();
    const cases = [
      buildCaseReport(prepared('a'), [pass(1), pass(2)]),
      buildCaseReport(prepared('b'), [pass(1), fail(2)]),
      buildCaseReport(prepared('c'), [fail(1), judgeDown(2)]),
    ];
    const summary = summarise(cases, 1000, 0.9);
    expect(summary).toMatchObject({ passed: 1, failed: 1, errored: 1, pass_rate: 0.5, confidence: 0.9 });
    expect(summary.attempts).toMatchObject({
      finished: 5,
      passed: 3,
      errored: 1,
      stopped: 0,
      pass_rate: 0.6,
    });
    expect(summary.attempts?.pass_interval).toMatchObject({ confidence: 0.9, method: 'cluster-wilson' });
    expect(summary.attempts?.pass_interval?.lower).toBeLessThan(0.6);
    expect(summary.attempts?.pass_interval?.upper).toBeGreaterThan(0.6);
  });
});
