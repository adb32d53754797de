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
