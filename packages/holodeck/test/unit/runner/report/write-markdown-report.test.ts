import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../../../src/runner/report/compare-runs.js';
import { writeMarkdownReport } from '../../../../src/runner/report/write-markdown-report.js';
import { bleu, failingCase, judge, mixedRun, passingCase, runReport } from './report-builder.js';

function lines(markdown: string): string[] {
  return markdown.split('\n');
}

describe('writeMarkdownReport', () => {
  it('starts with a ❌ headline, counts, pass rate, duration, tokens and cost when a case failed', () => {
    const [title, , totals, , about] = lines(writeMarkdownReport(mixedRun()));
    expect(title).toBe('## ❌ HoloDeck: support-agent failed');
    expect(totals).toBe(
      '**1/3 passed** · 1 failed · 1 errored · pass rate 33.3% · 1/2 finished attempts passed, [5.5%, 94.5%] at 95% · 12.3 s · 2,760 tokens · $0.0126 ($0.0126 per passed case)',
    );
    expect(about).toBe(
      '<sub>run `2026-11-30T01-02-03Z-ab12cd` · model `claude-sonnet-4-5` (anthropic) · /home/dev/agents/support/agent.yaml</sub>',
    );
  });

  it('has a ✅ headline and no failing-cases table when every case passed', () => {
    const markdown = writeMarkdownReport(runReport([passingCase('refund-policy'), passingCase('greeting')]));
    expect(lines(markdown)[0]).toBe('## ✅ HoloDeck: support-agent passed');
    expect(markdown).not.toContain('### Failing cases');
  });

  it('lists failing and errored cases with their failing metrics or error', () => {
    const markdown = lines(writeMarkdownReport(mixedRun()));
    expect(markdown).toContain('### Failing cases (2)');
    expect(markdown).toContain('| Case | Status | Failing metrics or error |');
    expect(markdown).toContain('| shipping-times | ❌ FAIL | bleu 0.41 &lt; 0.6 |');
    expect(markdown).toContain(
      '| escalate-angry-customer | 💥 ERROR | API error 529: Overloaded (after 3 retries) |',
    );
    expect(markdown).toContain('- **shipping-times** · bleu: BLEU 0.41 against the ground truth');
  });

  it('puts every case in a collapsible <details> block', () => {
    const markdown = writeMarkdownReport(mixedRun());
    expect(markdown).toContain(
      [
        '<details>',
        '<summary>All 3 cases</summary>',
        '',
        '| Case | Status | Metrics | Duration |',
        '| --- | --- | --- | --- |',
        '| refund-policy | ✅ PASS | ✓ bleu 0.82 | 1.2 s |',
        '| shipping-times | ❌ FAIL | ✗ bleu 0.41, ✓ helpfulness 0.9 | 1.2 s |',
        '| escalate-angry-customer | 💥 ERROR | API error 529: Overloaded (after 3 retries) | 0.4 s |',
        '',
        '</details>',
      ].join('\n'),
    );
  });

  it('escapes HTML and pipes from names and reasons so the comment layout holds', () => {
    const report = runReport([
      failingCase('a|b <details>', [{ ...bleu(0.1), reason: 'got </details> | here\nnext' }]),
    ]);
    const markdown = lines(writeMarkdownReport(report));
    expect(markdown).toContain('| a\\|b &lt;details&gt; | ❌ FAIL | bleu 0.1 &lt; 0.6 |');
    expect(markdown).toContain('- **a\\|b &lt;details&gt;** · bleu: got &lt;/details&gt; \\| here next');
  });

  it('adds regressions and improvements when given a baseline comparison', () => {
    const baseline = runReport(
      [
        passingCase('refund-policy'),
        passingCase('shipping-times', [bleu(0.72), judge('helpfulness', 0.9)]),
        failingCase('greeting', [judge('tone', 0.3)]),
      ],
      { run_id: 'base-1' },
    );
    const current = runReport([
      passingCase('refund-policy'),
      failingCase('shipping-times', [bleu(0.41), judge('helpfulness', 0.9)]),
      passingCase('greeting', [judge('tone', 0.8)]),
      passingCase('new-case'),
    ]);
    const markdown = lines(writeMarkdownReport(current, compareRuns(current, baseline)));
    expect(markdown).toContain('### Compared with baseline `base-1`');
    expect(markdown).toContain(
      '0 regressed · 0 improved · 3 no significant change · 1 new · 0 removed · pass rate 66.7% → 66.7% on the 3 compared cases',
    );
    // Single attempts: a flip is not significant on its own; the row says so with the numbers.
    expect(markdown).toContain(
      '| shipping-times | ➖ no significant change | 1/1 → 0/1, −100 points [−100, +12.2] at 95%: not significant | newly failing: bleu 0.72 → 0.41 (-0.31) |',
    );
    expect(markdown).toContain(
      '| greeting | ➖ no significant change | 0/1 → 1/1, +100 points [−12.2, +100] at 95%: not significant | newly passing: tone 0.3 → 0.8 (+0.5) |',
    );
    expect(markdown).toContain('| new-case | 🆕 new | new: PASS |  |');
    expect(markdown.some((line) => line.includes('McNemar exact p = 1 · 1 win, 1 loss, 1 tie'))).toBe(true);
  });

  it('has no comparison section without a baseline', () => {
    expect(writeMarkdownReport(mixedRun())).not.toContain('Compared with baseline');
  });
});
