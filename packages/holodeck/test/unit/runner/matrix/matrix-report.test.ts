import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { combineVariantRuns } from '../../../../src/runner/matrix/combine-variant-runs.js';
import { compareVariants } from '../../../../src/runner/matrix/compare-variants.js';
import { matrixGrid } from '../../../../src/runner/report/matrix-grid.js';
import { mergeRuns } from '../../../../src/runner/report/merge-runs.js';
import { renderMatrixSummary } from '../../../../src/runner/report/render-matrix-summary.js';
import { validateRunReport } from '../../../../src/runner/report/run-report-schema.js';
import { variantRun } from '../../../../src/runner/report/variant-run.js';
import { writeJunitReport } from '../../../../src/runner/report/write-junit-report.js';
import { writeMarkdownReport } from '../../../../src/runner/report/write-markdown-report.js';
import { runReport } from '../report/report-builder.js';
import { REPORT_FIXTURES } from '../report/report-paths.js';
import { agentOf, matrixRun, outcome, variant } from './matrix-run-builder.js';

describe('one run record of a matrix', () => {
  it('tags every case with its variant and sums the run over every attempt once', () => {
    const report = matrixRun();
    expect(report.cases.map((entry) => `${entry.variant}/${entry.name}`)).toEqual([
      'claude/capital',
      'claude/planet',
      'claude/tie',
      'gpt/capital',
      'gpt/planet',
      'gpt/tie',
    ]);
    const [claude, gpt] = report.matrix?.variants ?? [];
    expect(claude?.summary.cost_usd).toBeCloseTo(0.004, 10);
    expect(gpt?.summary.cost_usd).toBeCloseTo(0.008, 10);
    expect(report.summary.cost_usd).toBeCloseTo(0.012, 10);
    expect(report.summary.token_usage.total_tokens).toBe(6 * 110);
    expect(report.summary).toMatchObject({ total: 6, passed: 5, failed: 1, duration_ms: 30_000 });
    expect(
      report.matrix?.variants.map((entry) => [entry.name, entry.backend, entry.provider, entry.model]),
    ).toEqual([
      ['claude', 'claude', 'anthropic', 'claude-sonnet-4-5'],
      ['gpt', 'ai-sdk', 'openai', 'gpt-4o'],
    ]);
    // It is a valid run report (the schema every reader uses).
    expect(() => validateRunReport(JSON.parse(JSON.stringify(report)), 'matrix.json')).not.toThrow();
  });

  it('marks a variant not started as interrupted with empty totals', () => {
    const claude = runReport([outcome('capital', true, 0.001, 2000)]);
    const report = combineVariantRuns(
      agentOf('anthropic', 'claude-sonnet-4-5'),
      [
        { variant: variant('claude', 'anthropic', 'claude-sonnet-4-5'), report: claude },
        { variant: variant('gpt', 'openai', 'gpt-4o') },
      ],
      { startedAt: new Date(), finishedAt: new Date(), interrupted: true },
    );
    expect(report.interrupted).toBe(true);
    expect(report.matrix?.variants[1]).toMatchObject({
      name: 'gpt',
      interrupted: true,
      summary: { total: 0 },
    });
  });

  it('slices one variant back into a plain run', () => {
    const gpt = variantRun(matrixRun(), 'gpt');
    expect(gpt.matrix).toBeUndefined();
    expect(gpt.agent).toMatchObject({ model: 'gpt-4o', provider: 'openai' });
    expect(gpt.cases.map((entry) => entry.name)).toEqual(['capital', 'planet', 'tie']);
    expect(gpt.cases.every((entry) => entry.variant === undefined)).toBe(true);
    expect(() => variantRun(matrixRun(), 'gtp')).toThrow(
      /has no variant "gtp"; its variants are claude, gpt/,
    );
  });
});

describe('the case × variant grid', () => {
  it('marks the best cell of each row: pass rate, then score, then cost, then latency; none on a tie', () => {
    const grid = matrixGrid(matrixRun());
    const best = grid.rows.map((row) => [row.name, row.cells.map((cell) => cell?.best)]);
    expect(best).toEqual([
      ['capital', [true, false]],
      ['planet', [false, true]],
      ['tie', [false, false]],
    ]);
  });

  it("draws plain text: a row per case, a cell per variant, each variant's totals and the run's", () => {
    const text = renderMatrixSummary(matrixRun(), { color: false });
    expect(text).not.toContain('\u001b[');
    const lines = text.split('\n');
    expect(lines.slice(0, 7)).toEqual([
      'Matrix: 2 variants × 3 cases',
      '',
      'Case     claude                             gpt',
      'capital  * PASS 1/1 100% 0.9 $0.0010 2.0 s    PASS 1/1 100% 0.9 $0.0030 0.9 s',
      'planet     FAIL 0/1 0% 0.2 $0.0010 1.5 s    * PASS 1/1 100% 0.9 $0.0030 0.8 s',
      'tie        PASS 1/1 100% 0.9 $0.0020 1.0 s    PASS 1/1 100% 0.9 $0.0020 1.0 s',
      '',
    ]);
    expect(text).toMatch(
      /^claude \(anthropic claude-sonnet-4-5, claude backend\): 3 cases: 2 passed, 1 failed/m,
    );
    expect(text).toMatch(/^all variants: 6 cases: 5 passed, 1 failed, 0 errored · pass rate 83\.3%/m);
  });

  it('colours the cells on a terminal that wants colour', () => {
    expect(renderMatrixSummary(matrixRun(), { color: true })).toContain('\u001b[31m  FAIL 0/1');
  });
});

describe('the reports of a matrix run', () => {
  const schema = XmlDocument.fromString(readFileSync(join(REPORT_FIXTURES, 'junit.xsd'), 'utf8'));
  const validator = XsdValidator.fromDoc(schema);
  afterAll(() => {
    validator.dispose();
    schema.dispose();
  });

  it('JUnit: one valid testsuite per variant, named after it, with a variant property', () => {
    const document = XmlDocument.fromString(writeJunitReport(matrixRun()));
    try {
      expect(() => validator.validate(document)).not.toThrow();
      const query = (xpath: string) => String(document.eval(`string(${xpath})`));
      expect(query('count(/testsuites/testsuite)')).toBe('2');
      expect(query('/testsuites/@tests')).toBe('6');
      expect(query('/testsuites/@failures')).toBe('1');
      expect(query('/testsuites/testsuite[1]/@name')).toBe('support-agent [claude]');
      expect(query('/testsuites/testsuite[2]/@failures')).toBe('0');
      expect(query('/testsuites/testsuite[2]/properties/property[@name="variant"]/@value')).toBe('gpt');
      expect(query('/testsuites/testsuite[2]/properties/property[@name="model"]/@value')).toBe('gpt-4o');
    } finally {
      document.dispose();
    }
  });

  it('compares two variants with the statistics of --baseline, paired by case', () => {
    const comparison = compareVariants(matrixRun(), 'claude', 'gpt');
    expect(comparison.compared).toBe(3);
    expect(comparison.suite.wins).toBe(1);
    expect(comparison.suite.losses).toBe(0);
    expect(comparison.suite.ties).toBe(2);
    expect(comparison.differences).toContain('model "claude-sonnet-4-5" → "gpt-4o"');
    expect(comparison.cost.current).toBeCloseTo(0.008, 10);
  });
});

describe('what a matrix run cannot be', () => {
  it('is not merged as a shard', () => {
    expect(() => mergeRuns([matrixRun()], ['matrix.json'], 'merged')).toThrow(
      'Cannot merge: matrix.json is a matrix run, whose cases repeat once per variant. Merge the shards of plain runs; shard a matrix by running each variant with --matrix.',
    );
  });
});

describe('the Markdown report of a matrix run', () => {
  it('names each case with its variant', () => {
    const markdown = writeMarkdownReport(matrixRun());
    expect(markdown).toContain('planet [claude]');
    expect(markdown).toContain('planet [gpt]');
  });
});
