import { describe, expect, it } from 'vitest';
import { writeHtmlReport } from '../../../src/view/write-html-report.js';
import { matrixRun } from '../runner/matrix/matrix-run-builder.js';

// The HTML report (and `holodeck test view`, which draws the same pages) of a matrix run.
const TRICKY = '<img src=x onerror=alert(1)> capital';

describe('the run page of a matrix run', () => {
  const page = writeHtmlReport(matrixRun(TRICKY));
  const main = /<main id="main" tabindex="-1">([\s\S]*?)<\/main>/.exec(page)?.[1] ?? '';

  it('shows the case × variant grid before the cases, each variant with its model and backend', () => {
    expect(main).toContain('<h2 id="matrix-heading">Variants</h2>');
    expect(main.indexOf('matrix-heading')).toBeLessThan(main.indexOf('cases-heading'));
    expect(main).toContain(
      '<caption>3 case(s) × 2 variant(s); ★ best of the row (pass rate, then score, cost, latency)</caption>',
    );
    expect(main).toMatch(
      /<th scope="col">claude<div class="muted small">anthropic claude-sonnet-4-5 · claude backend<\/div>/,
    );
    expect(main).toMatch(/<th scope="col">gpt<div class="muted small">openai gpt-4o · ai-sdk backend<\/div>/);
  });

  it('marks the best cell of a row and links each cell to the case under its variant', () => {
    const planet = /<tr><th scope="row">planet<\/th>([\s\S]*?)<\/tr>/.exec(main)?.[1] ?? '';
    const [claudeCell, gptCell] = planet.split('</td>');
    expect(claudeCell).toContain('badge-failed');
    expect(claudeCell).not.toContain('★');
    expect(gptCell).toContain('class="matrix-cell row-passed best"');
    expect(gptCell).toContain('<span class="visually-hidden">best of the row: </span>');
    expect(gptCell).toContain('href="#/runs/2026-11-30T01-02-03Z-ab12cd/cases/planet%20%5Bgpt%5D"');
    // The cases table names each case with its variant, so every case has a page of its own.
    expect(main).toContain('>planet [claude]</a>');
    expect(main).toContain('>planet [gpt]</a>');
  });

  it('escapes text from the run', () => {
    expect(main).not.toContain('<img src=x');
    expect(main).toContain('<th scope="row">&lt;img src=x onerror=alert(1)&gt; capital</th>');
  });
});
