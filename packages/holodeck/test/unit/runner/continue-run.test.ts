import { describe, expect, it } from 'vitest';
import { casesToContinue, mergeContinuedCases } from '../../../src/runner/continue-run.js';
import type { RunReport } from '../../../src/runner/report/run-report.js';
import { erroredCase, passingCase, runReport } from './report/report-builder.js';

const SUITE = `sha256:${'5'.repeat(64)}`;

function saved(overrides: Partial<RunReport> = {}): RunReport {
  const report = runReport([passingCase('a'), erroredCase('b', 'the agent run failed'), passingCase('c')], {
    run_id: 'run-1',
    ...overrides,
  });
  report.agent.suite_hash = SUITE;
  return report;
}

const current = (run: RunReport) => ({
  configHash: run.agent.config_hash,
  suiteHash: SUITE,
  selected: ['a', 'b', 'c'],
});

describe('continuing a saved run', () => {
  it('--retry-errored runs the errored cases; the merge keeps the others as saved, in suite order', () => {
    const run = saved();
    expect(casesToContinue({ mode: 'retry-errored', run }, current(run))).toEqual(['b']);
    const fresh = passingCase('b');
    const merged = mergeContinuedCases({ mode: 'retry-errored', run }, ['a', 'b', 'c'], [fresh]);
    expect(merged.map((entry) => entry.name)).toEqual(['a', 'b', 'c']);
    expect(merged[1]).toBe(fresh);
    expect(merged[0]).toBe(run.cases[0]);
  });

  it('--resume runs the stopped cases and those a dead run never wrote', () => {
    const run = saved({ in_progress: { planned_cases: 4 } });
    const stopped = run.cases[2];
    if (stopped) stopped.interrupted = true;
    expect(
      casesToContinue({ mode: 'resume', run }, { ...current(run), selected: ['a', 'b', 'c', 'd'] }),
    ).toEqual(['c', 'd']);
  });

  it('refuses a run of another agent configuration or suite, naming both hashes', () => {
    const run = saved();
    expect(() =>
      casesToContinue(
        { mode: 'retry-errored', run },
        { ...current(run), configHash: `sha256:${'9'.repeat(64)}` },
      ),
    ).toThrow(
      "--retry-errored: run run-1 tested another agent configuration (a1a1a1a, now 9999999), so its results cannot be merged with this run's\n    hint: run the suite again without --retry-errored",
    );
    expect(() =>
      casesToContinue(
        { mode: 'resume', run: saved({ interrupted: true }) },
        { ...current(run), suiteHash: `sha256:${'7'.repeat(64)}` },
      ),
    ).toThrow(
      '--resume: run run-1 ran another test suite (5555555, now 7777777): the test cases, metrics or thresholds changed since\n    hint: run the suite again without --resume',
    );
  });

  it('refuses what there is nothing to do for', () => {
    const clean = runReport([passingCase('a')], { run_id: 'run-2', interrupted: true });
    clean.agent.suite_hash = SUITE;
    const state = { configHash: clean.agent.config_hash, suiteHash: SUITE, selected: ['a'] };
    expect(() => casesToContinue({ mode: 'retry-errored', run: clean }, state)).toThrow(
      '--retry-errored: run run-2 did not finish (it was interrupted)\n    hint: finish it first with --resume run-2, then retry the errored cases of the run that makes',
    );
    const complete = { ...clean, interrupted: undefined };
    expect(() => casesToContinue({ mode: 'retry-errored', run: complete }, state)).toThrow(
      '--retry-errored: run run-2 has no errored case: nothing to retry',
    );
    expect(() => casesToContinue({ mode: 'resume', run: clean }, state)).toThrow(
      '--resume: every selected case of run run-2 finished: nothing to resume',
    );
  });
});
