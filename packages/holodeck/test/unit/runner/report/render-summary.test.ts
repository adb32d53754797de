import { describe, expect, it } from 'vitest';
import { inferReportFormat } from '../../../../src/runner/report/infer-report-format.js';
import { renderSummary } from '../../../../src/runner/report/render-summary.js';
import { writeReport } from '../../../../src/runner/report/write-report.js';
import { attempt, bleu, judge, mixedRun, runReport, testCase, toolCalled } from './report-builder.js';
import { thrownMessage } from './report-paths.js';

describe('renderSummary', () => {
  it('prints a table of cases with status, key metrics and duration, then the totals line', () => {
    expect(renderSummary(mixedRun(), { color: false })).toBe(
      [
        'Case                     Status  Metrics                                      Duration',
        'refund-policy            PASS    bleu 0.82                                       1.2 s',
        'shipping-times           FAIL    bleu 0.41 < 0.6, helpfulness 0.9                1.2 s',
        'escalate-angry-customer  ERROR   API error 529: Overloaded (after 3 retries)     0.4 s',
        '',
        '3 cases: 1 passed, 1 failed, 1 errored · pass rate 33.3% · 1/2 finished attempts passed, [5.5%, 94.5%] at 95% · 12.3 s · 2,760 tokens · $0.0126 ($0.0126 per passed case)',
        '',
      ].join('\n'),
    );
  });

  it('shows failing metrics first, limits the metrics shown, and counts attempts of repeated cases', () => {
    const metrics = [
      bleu(0.9),
      judge('tone', 0.8),
      toolCalled('lookup_order', false),
      judge('helpfulness', 0.75),
    ];
    const repeated = testCase('refund-policy', [attempt({ metrics }), attempt({ attempt: 2, metrics })]);
    const text = renderSummary(runReport([repeated]), { color: false, maxMetrics: 3 });
    expect(text.split('\n')[1]).toBe(
      'refund-policy  FAIL    0/2 [0%, 77.6%] pass@2 0 pass^2 0  tool_called failed, bleu 0.9, tone 0.8, +1 more     2.5 s',
    );
  });

  it('colours statuses and counts only when color is true', () => {
    expect(renderSummary(mixedRun(), { color: false })).not.toContain('\u001b[');
    const coloured = renderSummary(mixedRun(), { color: true });
    expect(coloured).toContain('\u001b[31mFAIL  \u001b[39m');
    expect(coloured).toContain('\u001b[33m1 errored\u001b[39m');
  });

  it('prints only the totals for a run without cases', () => {
    expect(renderSummary(runReport([]), { color: false })).toBe(
      '0 cases: 0 passed, 0 failed, 0 errored · pass rate 0% · 12.3 s · 0 tokens · $0\n',
    );
  });
});

describe('inferReportFormat and writeReport', () => {
  it('maps .json, .xml, .md and .html (any case) to their formats', () => {
    expect(inferReportFormat('out/report.json')).toBe('json');
    expect(inferReportFormat('junit.XML')).toBe('junit');
    expect(inferReportFormat('/tmp/summary.md')).toBe('markdown');
    expect(inferReportFormat('report.html')).toBe('html');
    expect(inferReportFormat('report.HTM')).toBe('html');
  });

  it('asks for --format when the extension says nothing', () => {
    expect(thrownMessage(() => inferReportFormat('report.txt'))).toBe(
      'Cannot tell the report format of report.txt: it ends in ".txt". Use .json, .xml (JUnit), .md (Markdown) or .html, or pass --format json|junit|markdown|html.',
    );
    expect(thrownMessage(() => inferReportFormat('results'))).toBe(
      'Cannot tell the report format of results: it has no extension. Use .json, .xml (JUnit), .md (Markdown) or .html, or pass --format json|junit|markdown|html.',
    );
  });

  it('writes each format', () => {
    const report = mixedRun();
    expect(writeReport(report, 'json').startsWith('{\n  "schema_version": 2,')).toBe(true);
    expect(
      writeReport(report, 'junit').startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites'),
    ).toBe(true);
    expect(writeReport(report, 'markdown').startsWith('## ❌ HoloDeck: support-agent failed')).toBe(true);
  });
});
