import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  approvedAsRun,
  approvedBaselinePath,
  approveRun,
  readApprovedBaseline,
  writeApprovedBaseline,
} from '../../../src/runner/gate/approved-baseline.js';
import { evaluateGate, renderGate } from '../../../src/runner/gate/evaluate-gate.js';
import { compareRuns } from '../../../src/runner/report/compare-runs.js';
import {
  attempt,
  bleu,
  erroredCase,
  failingCase,
  passingCase,
  runReport,
  testCase,
} from './report/report-builder.js';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'holodeck-gate-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

const threeOf = (name: string, passes: number) =>
  testCase(
    name,
    [1, 2, 3].map((n) => attempt({ attempt: n, metrics: [bleu(n <= passes ? 0.9 : 0.1)] })),
  );

describe('holodeck test approve', () => {
  it('writes per-case results without transcripts, and reads them back as a run', async () => {
    const run = runReport([threeOf('a', 3), threeOf('b', 3)], { run_id: 'run-1' });
    const file = await writeApprovedBaseline(
      folder,
      approveRun(run, 'run-1', new Date('2026-12-01T00:00:00Z')),
    );
    expect(file).toBe(approvedBaselinePath(folder));
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('Refunds are issued');
    const baseline = await readApprovedBaseline(folder);
    expect(baseline).toMatchObject({ run_id: 'run-1', approved_at: '2026-12-01T00:00:00.000Z' });
    const asRun = approvedAsRun(baseline, file);
    expect(asRun.cases.map((entry) => [entry.name, entry.state, entry.finished_attempts])).toEqual([
      ['a', 'passing', 3],
      ['b', 'passing', 3],
    ]);
  });

  it('refuses a run with errored, stopped or missing cases, saying which', () => {
    const stopped = testCase('slow', [], {
      interrupted: true,
      passed: false,
      errored: false,
      state: 'stopped',
    });
    const run = runReport([passingCase('a'), erroredCase('b', 'API error 529'), stopped], {
      run_id: 'run-2',
      suite_cases: ['a', 'b', 'slow', 'd'],
    });
    expect(() => approveRun(run, 'run-2')).toThrow(
      'Cannot approve run run-2: 1 errored case(s): b; 1 stopped case(s): slow; 1 case(s) of the suite missing (a --filter, --tag or --shard run?): d. Approve a complete run of the whole suite (rerun `holodeck test` without a selection, or `--retry-errored`).',
    );
  });

  it('says how to make one when there is none, and when it is not valid', async () => {
    await expect(readApprovedBaseline(folder)).rejects.toThrow(
      `No approved baseline at ${approvedBaselinePath(folder)}. Approve a run first: \`holodeck test approve <run-id> ${path.join(folder, 'agent.yaml')}\`.`,
    );
    await writeApprovedBaseline(folder, approveRun(runReport([passingCase('a')]), 'x'));
    await writeFile(approvedBaselinePath(folder), '{"schema_version": 1}');
    await expect(readApprovedBaseline(folder)).rejects.toThrow(
      /^Invalid approved baseline .*: run_id: .*Approve a run again to rewrite it\.$/,
    );
  });
});

describe('the gate', () => {
  const approvedRun = () =>
    approvedAsRun(approveRun(runReport([threeOf('a', 3), threeOf('b', 3), threeOf('c', 3)]), 'x'), 'f');

  it('holds when every rule holds, and prints each rule', () => {
    const current = runReport([threeOf('a', 3), threeOf('b', 3), threeOf('c', 3)]);
    const result = evaluateGate(
      current,
      { max_cost_usd: 1 },
      { comparison: compareRuns(current, approvedRun()) },
    );
    expect(result.held).toBe(true);
    expect(renderGate(result)).toBe(
      [
        'Gate: HELD',
        '  held    every required case passes (all required)',
        '  held    no regression against the approved baseline approved:2026-11-30T01-02-03Z-ab12cd',
        '  held    no case missing from the run',
        '  held    no duplicate case names',
        '  held    no errored or stopped attempts',
        '  held    every finished attempt has valid metric results',
        '  held    the run (agent and judge) costs at most $1.00',
        '',
      ].join('\n'),
    );
  });

  it('breaks on a significant regression, a failed required case, errors, missing cases and cost', () => {
    const current = runReport([threeOf('a', 0), threeOf('b', 2), erroredCase('c', 'API error 529')], {
      suite_cases: ['a', 'b', 'c', 'd'],
    });
    const result = evaluateGate(
      current,
      { required: ['b'], max_cost_usd: 0.001, max_cost_per_passed_case_usd: 1 },
      { comparison: compareRuns(current, approvedRun()) },
    );
    expect(result.held).toBe(false);
    expect(result.rules.filter((rule) => !rule.held).map((rule) => [rule.rule, rule.broken_by])).toEqual([
      ['every required case passes (1 required)', ['b']],
      ['no regression against the approved baseline approved:2026-11-30T01-02-03Z-ab12cd', ['a']],
      ['no case missing from the run', ['d']],
      ['no errored or stopped attempts', ['c']],
      ['the run (agent and judge) costs at most $0.0010', ['it cost $0.0378']],
      ['each passed case costs at most $1.00', ['no case passed']],
    ]);
  });

  it("counts the judge's spend in max_cost_usd (not in the cost per passed case), and breaks when it is unknown", () => {
    const current = runReport([threeOf('a', 3)]);
    const withJudge = (judge: number | null, reason?: string) => ({
      ...current,
      summary: {
        ...current.summary,
        cost_usd: 0.0006,
        judge_cost_usd: judge,
        ...(reason ? { judge_cost_unknown_reason: reason } : {}),
        total_cost_usd: judge === null ? null : 0.0006 + judge,
      },
    });
    const gate = { max_cost_usd: 0.001, max_cost_per_passed_case_usd: 0.0007 };
    const brokenOf = (report: ReturnType<typeof withJudge>) =>
      evaluateGate(report, gate, { error: 'none' })
        .rules.filter((rule) => !rule.held && !rule.rule.startsWith('no regression'))
        .map((rule) => [rule.rule, rule.broken_by]);
    expect(brokenOf(withJudge(0.0003))).toEqual([]);
    expect(brokenOf(withJudge(0.0007))).toEqual([
      ['the run (agent and judge) costs at most $0.0010', ['it cost $0.0013']],
    ]);
    expect(
      brokenOf(
        withJudge(
          null,
          'the price table (anthropic 2026-02-17) has no price for the judge model anthropic claude-x',
        ),
      ),
    ).toEqual([
      [
        'the run (agent and judge) costs at most $0.0010',
        [
          "the judge's cost is unknown (the price table (anthropic 2026-02-17) has no price for the judge model anthropic claude-x)",
        ],
      ],
    ]);
  });

  it('breaks its baseline rule when there is no approved baseline, and on duplicate names', () => {
    const current = runReport([passingCase('a'), passingCase('a'), failingCase('b', [bleu(0.1)])]);
    const result = evaluateGate(current, { required: ['a'] }, { error: 'No approved baseline at x.' });
    expect(result.rules.filter((rule) => !rule.held).map((rule) => [rule.rule, rule.broken_by])).toEqual([
      ['no regression against the approved baseline', ['No approved baseline at x.']],
      ['no duplicate case names', ['a']],
    ]);
  });
});
