import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../../../src/runner/report/compare-runs.js';
import { createProgressReporter } from '../../../../src/runner/report/progress-reporter.js';
import { renderComparison } from '../../../../src/runner/report/render-comparison.js';
import { renderSummary } from '../../../../src/runner/report/render-summary.js';
import { writeJunitReport } from '../../../../src/runner/report/write-junit-report.js';
import { writeMarkdownReport } from '../../../../src/runner/report/write-markdown-report.js';
import { attempt, bleu, passingCase, runReport, testCase } from './report-builder.js';

/** A case that passed 2 of 3 attempts with min_pass_rate 0.6: it passes, and is flaky. */
function flakyPass() {
  return testCase(
    'refund-policy',
    [
      attempt({ attempt: 1, metrics: [bleu(0.82)], duration_ms: 1000 }),
      attempt({ attempt: 2, metrics: [bleu(0.4)], duration_ms: 1000 }),
      attempt({ attempt: 3, metrics: [bleu(0.9)], duration_ms: 1000 }),
    ],
    { min_pass_rate: 0.6 },
  );
}

const REPEATS =
  '2/3 finished attempts passed (66.7%), [20.8%, 93.9%] at 95% · needs 60% · pass@3 1 · pass^3 0.296 · flaky';

describe('repeats are shown the same way everywhere (terminal, Markdown, JUnit)', () => {
  it('a passing repeated case shows its attempts, pass@k, pass^k and a flaky mark in the progress line', () => {
    const chunks: string[] = [];
    createProgressReporter({
      stream: { write: (text) => chunks.push(text) },
      interactive: false,
      color: false,
    }).caseFinished(flakyPass());
    expect(chunks).toEqual([`PASS  refund-policy  (3.0 s)  ${REPEATS}\n`]);
  });

  it('the summary table has an Attempts column', () => {
    const [header, row, ...rest] = renderSummary(runReport([flakyPass(), passingCase('greeting')]), {
      color: false,
    }).split('\n');
    expect(header).toBe(
      'Case           Status  Attempts                                        Metrics         Duration',
    );
    // Passed/finished attempts and the 95 % interval; a single attempt says it has none.
    expect(row).toBe(
      'refund-policy  PASS    2/3 [20.8%, 93.9%] pass@3 1 pass^3 0.296 flaky  bleu 0.4 < 0.6     3.0 s',
    );
    expect(rest[0]).toBe(
      'greeting       PASS    1/1 no interval                                 bleu 0.82          1.2 s',
    );
  });

  it('Markdown shows the attempts, and a metric that failed in one attempt is not ✓', () => {
    const markdown = writeMarkdownReport(runReport([flakyPass()]));
    expect(markdown).toContain('| Case | Status | Attempts | Metrics | Duration |');
    expect(markdown).toContain(`| refund-policy | ✅ PASS | ${REPEATS} | ✗ bleu 0.82 (2/3) | 3.0 s |`);
  });

  it('JUnit puts the attempts first in system-out of a passing repeated case', () => {
    const xml = writeJunitReport(runReport([flakyPass()]));
    expect(xml).toContain(
      `<system-out>[${REPEATS}]\nRefunds are issued within 14 days of the return arriving at our warehouse.</system-out>`,
    );
  });
});

describe('an interrupted run', () => {
  const stopped = testCase('slow-case', [], { interrupted: true, passed: false, errored: false });
  const report = runReport([passingCase('greeting'), stopped], {
    interrupted: true,
    summary: {
      ...runReport([passingCase('greeting'), stopped]).summary,
      passed: 1,
      failed: 0,
      errored: 0,
      interrupted: 1,
    },
  });

  it('shows the cases it kept from finishing as STOPPED, not as failures', () => {
    const text = renderSummary(report, { color: false });
    expect(text).toContain('slow-case  STOPPED  the run was interrupted before this case finished');
    expect(text).toContain('2 cases: 1 passed, 0 failed, 0 errored, 1 stopped by the interruption');
  });

  it('marks them skipped in JUnit and says interrupted in Markdown', () => {
    const xml = writeJunitReport(report);
    expect(xml).toMatch(/<testsuite [^>]*skipped="1"/);
    expect(xml).toContain('<skipped message="the run was interrupted before this case finished"/>');
    expect(writeMarkdownReport(report).split('\n')[0]).toBe('## ⏹️ HoloDeck: support-agent interrupted');
  });
});

describe('--baseline with a selection or another agent', () => {
  it('leaves cases the run did not select out, instead of calling them removed, and says how the runs differ', () => {
    const baseline = runReport([passingCase('a'), passingCase('b'), passingCase('c')], { run_id: 'base' });
    const current = runReport([passingCase('a')], {
      run_id: 'now',
      agent: { ...baseline.agent, model: 'claude-haiku-4-5' },
      options: { ...baseline.options, filter: 'a' },
    });
    const comparison = compareRuns(current, baseline, { suiteCases: ['a', 'b', 'c'] });
    expect(comparison.counts).toEqual({
      regressed: 0,
      improved: 0,
      unchanged: 1,
      new: 0,
      removed: 0,
      'not-compared': 0,
    });
    expect(comparison.notSelected).toEqual(['b', 'c']);
    // A 1-case filtered run is set against the baseline's same case, not its whole pass rate.
    expect(renderComparison(comparison, { color: false }).split('\n').slice(0, 5)).toEqual([
      'Compared with baseline run base:',
      '  note compared only on the 1 case both runs finished',
      '  note the runs differ: model "claude-sonnet-4-5" → "claude-haiku-4-5"; --filter (none) → "a"',
      '  note 2 baseline cases not selected by this run (b, c): left out of the comparison',
      '  0 regressed · 0 improved · 1 no significant change · 0 new · 0 removed · pass rate 100% → 100% on the 1 compared case',
    ]);
    // A case gone from the suite is still removed.
    expect(compareRuns(current, baseline, { suiteCases: ['a', 'b'] }).counts.removed).toBe(1);
  });

  it('says when the runs had a different --max-processes bound', () => {
    const baseline = runReport([passingCase('a')], { run_id: 'base' });
    const bounded = runReport([passingCase('a')], {
      run_id: 'now',
      options: { ...baseline.options, max_processes: 3 },
    });
    expect(compareRuns(bounded, baseline).differences).toEqual(['--max-processes (none) → 3']);
    expect(compareRuns(bounded, bounded).differences).toEqual([]);
  });
});
