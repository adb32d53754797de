import { HtmlRenderer, Parser } from 'commonmark';
import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../../src/runner/gate/evaluate-gate.js';
import {
  escapeCommandData,
  escapeCommandProperty,
  githubAnnotations,
  writeCiSummary,
} from '../../../../src/runner/report/ci-surfaces.js';
import { compareRuns } from '../../../../src/runner/report/compare-runs.js';
import {
  attempt,
  bleu,
  erroredCase,
  failingCase,
  mixedRun,
  passingCase,
  runReport,
  testCase,
} from './report-builder.js';

const html = (markdown: string) => new HtmlRenderer({ safe: true }).render(new Parser().parse(markdown));

const threeOf = (name: string, passes: number) =>
  testCase(
    name,
    [1, 2, 3].map((n) => attempt({ attempt: n, metrics: [bleu(n <= passes ? 0.9 : 0.1)] })),
  );

describe('the CI summary', () => {
  it('renders as CommonMark: headline, intervals, gate table, failed cases and regressions', () => {
    const baseline = runReport([threeOf('refund-policy', 3), passingCase('greeting')], { run_id: 'base-1' });
    const current = runReport([
      threeOf('refund-policy', 0),
      failingCase('greeting', [bleu(0.2)]),
      erroredCase('crash', 'API error 529'),
    ]);
    const comparison = compareRuns(current, baseline);
    const gate = evaluateGate(current, {}, { comparison });
    const rendered = html(writeCiSummary(current, comparison, gate));
    expect(rendered).toContain('<h2>❌ HoloDeck: support-agent</h2>');
    expect(rendered).toContain('<strong>0/3 passed</strong> · 2 failed · 1 errored · pass rate 0%');
    expect(rendered).toMatch(/0\/4 finished attempts passed, \[0%, [\d.]+%\] at 95%/);
    expect(rendered).toContain('<h3>Gate: broken</h3>');
    // GitHub renders GFM tables; CommonMark keeps them as paragraphs of pipes, so check the rows' text.
    expect(rendered).toContain(
      '| no regression against the approved baseline base-1 | ❌ broken | refund-policy |',
    );
    expect(rendered).toContain('<h3>Failed and errored cases (3)</h3>');
    expect(rendered).toContain('| crash | errored | API error 529 |');
    expect(rendered).toContain('<h3>Compared with <code>base-1</code></h3>');
    expect(rendered).toContain('| refund-policy | 3/3 → 0/3, −100 points [−100, −20.6] at 95% |');
  });

  it("adds the judge's cost, its billed and cached calls, and the total spend when the judge was called", () => {
    const run = runReport([
      testCase('a', [
        attempt({ cost_usd: 0.01, judge_cost_usd: 0.004, judge_calls: { billed: 3, cached: 2 } }),
      ]),
    ]);
    const summary = {
      ...run.summary,
      judge_cost_usd: 0.004,
      judge_calls: { billed: 3, cached: 2 },
      total_cost_usd: 0.014,
    };
    expect(writeCiSummary({ ...run, summary })).toContain(
      'Cost $0.0100 · $0.0100 per passed case\n\nJudge $0.0040 (3 billed, 2 cached calls) · Total $0.0140',
    );
  });

  it('escapes run text so a response cannot inject markup', () => {
    const nasty = erroredCase('<img src=x onerror=alert(1)>', '**bold** | <script>alert(1)</script>');
    const rendered = html(writeCiSummary(runReport([nasty])));
    expect(rendered).not.toContain('<script>');
    expect(rendered).not.toContain('<img');
  });
});

describe('GitHub annotations', () => {
  // https://docs.github.com/actions/reference/workflow-commands-for-github-actions: `::error
  // file={name},line={line},title={title}::{message}`; the message escapes % CR LF as %25 %0D
  // %0A, property values also ':' and ',' as %3A and %2C.
  it('escapes message data and property values as the workflow-command format documents', () => {
    expect(escapeCommandData('50% done\r\nnext: a, b')).toBe('50%25 done%0D%0Anext: a, b');
    expect(escapeCommandProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
  });

  it('points each failed, errored or regressed case at its line in agent.yaml', () => {
    const failing = {
      ...failingCase('refund, policy: v2', [bleu(0.2)]),
      source: { file: '/work/repo/agents/agent.yaml', line: 14 },
    };
    const crashed = {
      ...erroredCase('crash', 'API error 529\nretry later'),
      source: { file: '/work/repo/agents/cases.yaml', line: 3 },
    };
    const fine = { ...passingCase('fine'), source: { file: '/work/repo/agents/agent.yaml', line: 20 } };
    const lines = githubAnnotations(runReport([failing, crashed, fine]), undefined, '/work/repo');
    expect(lines).toEqual([
      '::error file=agents/agent.yaml,line=14,title=HoloDeck%3A refund%2C policy%3A v2::failing: bleu 0.2 < 0.6',
      '::error file=agents/cases.yaml,line=3,title=HoloDeck%3A crash::errored: API error 529 …',
    ]);
    for (const line of lines) expect(line).toMatch(/^::error file=[^,:]+,line=\d+,title=[^:,]+::[^\r\n]*$/);
  });

  it('names a significant regression even when the case passes its own bar', () => {
    const baseline = runReport([threeOf('a', 3)]);
    const current = runReport([
      {
        ...testCase('a', threeOf('a', 0).attempts, { min_pass_rate: 0 }),
        source: { file: '/r/agent.yaml', line: 7 },
      },
    ]);
    expect(githubAnnotations(current, compareRuns(current, baseline), '/r')).toEqual([
      '::error file=agent.yaml,line=7,title=HoloDeck%3A a::regressed: 3/3 → 0/3, −100 points [−100, −20.6] at 95%25',
    ]);
  });

  it('writes nothing for a green run', () => {
    expect(githubAnnotations(mixedRun({ cases: [passingCase('ok')] }), undefined, '/')).toEqual([]);
  });
});
