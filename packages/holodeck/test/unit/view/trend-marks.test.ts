import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/runner/report/run-report.js';
import { toRunHeader, toRunList, toViewRun } from '../../../src/view/build-view-data.js';
import { DEFAULT_CASE_QUERY } from '../../../src/view/pages/page-route.js';
import { renderRunPage } from '../../../src/view/pages/render-run-page.js';
import { renderRunsPage } from '../../../src/view/pages/render-runs-page.js';
import { renderTrendChart } from '../../../src/view/pages/render-trend-chart.js';
import { passingCase, runReport } from '../runner/report/report-builder.js';

function run(id: string, day: number, cases: string[], overrides: Partial<RunReport> = {}): RunReport {
  return runReport(
    cases.map((name) => passingCase(name)),
    {
      run_id: id,
      started_at: `2026-11-${String(day).padStart(2, '0')}T09:00:00.000Z`,
      finished_at: `2026-11-${String(day).padStart(2, '0')}T09:00:10.000Z`,
      ...overrides,
    },
  );
}

function listed(reports: RunReport[]) {
  // Newest first, as the catalog lists them.
  return toRunList(
    [...reports].reverse().map((report) => ({
      header: toRunHeader(report),
      agentFile: report.agent.file,
      suiteCases: report.suite_cases,
    })),
  );
}

describe('the runs trend', () => {
  it('names the cases added and removed where the suite changed', () => {
    const first = run('run-1', 1, ['greeting', 'refund', 'old-case']);
    first.agent.suite_hash = `sha256:${'1'.repeat(64)}`;
    const second = run('run-2', 2, ['greeting', 'refund', 'new-a', 'new-b']);
    second.agent.suite_hash = `sha256:${'2'.repeat(64)}`;
    const [newest, oldest] = listed([first, second]);
    expect(newest).toMatchObject({
      suite_changed: true,
      suite_added: ['new-a', 'new-b'],
      suite_removed: ['old-case'],
    });
    expect(oldest?.suite_added).toBeUndefined();
    const page = renderRunsPage({ runs: listed([first, second]), unreadable: [] }, 'served').body.value;
    expect(page).toContain('test suite changed (2222222: 2 cases added, 1 removed)');
    expect(page).toContain('cases added: new-a, new-b');
    expect(page).toContain('cases removed: old-case');
  });

  it('an equal suite is not marked, and a changed suite with the same names says only that it changed', () => {
    const first = run('run-1', 1, ['greeting']);
    first.agent.suite_hash = `sha256:${'1'.repeat(64)}`;
    const second = run('run-2', 2, ['greeting']);
    second.agent.suite_hash = `sha256:${'1'.repeat(64)}`;
    const third = run('run-3', 3, ['greeting']);
    third.agent.suite_hash = `sha256:${'3'.repeat(64)}`;
    const [newest, middle] = listed([first, second, third]);
    expect(middle?.suite_changed).toBe(false);
    expect(newest).toMatchObject({ suite_changed: true, suite_added: [], suite_removed: [] });
    const page = renderRunsPage({ runs: listed([first, second, third]), unreadable: [] }, 'served').body
      .value;
    expect(page).toContain('test suite changed (3333333)');
    expect(page).not.toContain('cases added');
  });

  it('draws an interrupted run as an open mark off the pass-rate line, not as a collapse', () => {
    const first = run('run-1', 1, ['a', 'b']);
    const stopped = run('run-2', 2, ['a']);
    stopped.interrupted = true;
    stopped.summary.pass_rate = 0;
    stopped.summary.interrupted = 1;
    stopped.summary.cost_usd = 0.001;
    const third = run('run-3', 3, ['a', 'b']);
    const svg = renderTrendChart(listed([first, stopped, third]), 'served').value;
    const line = /<polyline class="pass-line" points="([^"]*)"/.exec(svg)?.[1] ?? '';
    // Two points on the line (the complete runs), both at 100 %: no dip to 0.
    expect(line.split(' ')).toHaveLength(2);
    expect(line).not.toContain(',242.0');
    expect(svg.match(/class="stopped-point"/g)).toHaveLength(1);
    expect(svg).toContain('(interrupted: 0 cases finished, not on the lines)');
    expect(svg).toContain('interrupted run (open mark, off the lines)');
  });

  it('marks a run that resumes another', () => {
    const stopped = run('run-1', 1, ['a']);
    stopped.interrupted = true;
    const resumed = run('run-2', 2, ['a', 'b'], {
      continued_from: { run_id: 'run-1', mode: 'resume', cases: ['b'] },
    });
    const page = renderRunsPage({ runs: listed([stopped, resumed]), unreadable: [] }, 'served').body.value;
    expect(page).toContain('<span class="badge badge-interrupted">interrupted</span>');
    expect(page).toContain('<span class="badge" title="finishes the cases of run-1">resumes run-1</span>');
  });
});

describe('the cost on a run page', () => {
  it('names why a cost is unknown, and shows the cost per passed case when it is known', () => {
    const unknown = run('run-1', 1, ['a']);
    unknown.summary.cost_usd = null;
    unknown.summary.cost_unknown_reason =
      'ollama runs llama3.2 on your own machine, so it has no per-token price';
    const page = renderRunPage(toViewRun(unknown), DEFAULT_CASE_QUERY, 'served', null).body.value;
    expect(page).toContain(
      '<strong>unknown</strong> cost <span class="muted small">(ollama runs llama3.2 on your own machine, so it has no per-token price)</span>',
    );
    const known = run('run-2', 2, ['a', 'b']);
    known.summary.cost_usd = 0.02;
    known.summary.cost_per_passed_case_usd = 0.01;
    const priced = renderRunPage(toViewRun(known), DEFAULT_CASE_QUERY, 'served', null).body.value;
    expect(priced).toContain('<strong>$0.0100</strong> per passed case');
    expect(priced).not.toContain('judge');
  });

  it("shows the judge's cost with its calls, and the total spend, once the run called the judge", () => {
    const judged = run('run-3', 3, ['a']);
    Object.assign(judged.summary, {
      cost_usd: 0.02,
      judge_cost_usd: 0.005,
      judge_calls: { billed: 4, cached: 2 },
      total_cost_usd: 0.025,
    });
    const page = renderRunPage(toViewRun(judged), DEFAULT_CASE_QUERY, 'served', null).body.value;
    expect(page).toContain('<li><strong>$0.0050</strong> judge (6 calls, 2 cached)</li>');
    expect(page).toContain('<li><strong>$0.0250</strong> total spend</li>');
    Object.assign(judged.summary, {
      judge_cost_usd: null,
      judge_cost_unknown_reason: 'no price',
      total_cost_usd: null,
    });
    const unknown = renderRunPage(toViewRun(judged), DEFAULT_CASE_QUERY, 'served', null).body.value;
    expect(unknown).toContain(
      '<li><strong>unknown</strong> judge (6 calls, 2 cached) <span class="muted small">(no price)</span></li>',
    );
    expect(unknown).toContain('<li><strong>unknown</strong> total spend</li>');
  });
});
