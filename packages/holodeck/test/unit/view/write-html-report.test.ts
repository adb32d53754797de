import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../../src/runner/report/compare-runs.js';
import { VIEW_CLIENT_SCRIPT } from '../../../src/view/assets/view-client-script.js';
import { VIEW_STYLES } from '../../../src/view/assets/view-styles.js';
import { writeHtmlReport } from '../../../src/view/write-html-report.js';
import { MARKUP_CASE, viewRuns } from './view-runs.js';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function dataOf(page: string): unknown {
  const match = /<script type="application\/json" id="holodeck-data">([\s\S]*?)<\/script>/.exec(page);
  if (!match?.[1]) throw new Error('no data element');
  return JSON.parse(match[1]);
}

describe('writeHtmlReport', () => {
  const [, baseline, current] = viewRuns();
  if (!baseline || !current) throw new Error('no runs');
  const page = writeHtmlReport(current, {
    baseline: { report: baseline, comparison: compareRuns(current, baseline) },
  });

  it('inlines its script and stylesheet and allows only them, by hash', () => {
    const policy = `default-src 'none'; script-src ${hash(VIEW_CLIENT_SCRIPT)}; style-src ${hash(VIEW_STYLES)}; img-src data:; base-uri 'none'; form-action 'none'`;
    expect(page).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${policy.replaceAll("'", '&#39;')}">`,
    );
    expect(page).toContain(`<style>${VIEW_STYLES}</style>`);
    expect(page).toContain(`<script>${VIEW_CLIENT_SCRIPT}</script>`);
    expect(page).not.toMatch(/\s(src|href)="(https?:)?\/\//);
    expect(page).not.toContain('<link');
  });

  it('carries the run and the comparison as JSON that text from the run cannot end', () => {
    const data = dataOf(page);
    expect(data).toMatchObject({
      mode: 'static',
      run: { run_id: 'run-3' },
      comparison: { baseline: { run_id: 'run-2' } },
    });
    expect(page).not.toContain(MARKUP_CASE);
    expect(page).toContain('\\u003cimg src=x onerror=alert(1)\\u003e tricky');
  });

  it('draws the run page into the file, so it reads without its script', () => {
    const main = /<main id="main" tabindex="-1">([\s\S]*?)<\/main>/.exec(page)?.[1] ?? '';
    expect(main).toMatch(/^<h1 tabindex="-1">Run 2026-11-30 09:00:00 UTC of support-agent /);
    expect(main).not.toContain('Loading…');
    expect(main).toContain('<li>bleu 0.31 &lt; 0.60</li><li>helpfulness 0.20 &lt; 0.70</li>');
    expect(main).toContain('&lt;img src=x onerror=alert(1)&gt; tricky');
    expect(main).toContain('Without JavaScript this file shows the run page only');
    expect(page).toContain('<title>Run 2026-11-30 09:00:00 UTC of support-agent · HoloDeck</title>');
  });

  it('survives a model answer that tries to close the script element', () => {
    const report = structuredClone(current);
    const first = report.cases[0]?.attempts[0];
    if (!first) throw new Error('no attempt');
    first.response = '</script><script>alert(1)</script><!--';
    const text = writeHtmlReport(report);
    expect(text.match(/<\/script>/g)).toHaveLength(2); // the data element's and the script's own
    expect(JSON.stringify(dataOf(text))).toContain('</script><script>alert(1)</script><!--');
  });
});
