// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's locator.innerText() (rendered text, line breaks kept), not the DOM property
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../../../src/runner/report/compare-runs.js';
import { writeHtmlReport } from '../../../src/view/write-html-report.js';
import { JUDGE_REASON, viewRuns } from '../../unit/view/view-runs.js';
import { drawn, launchBrowser, screenshot } from './view-browser.js';

let browser: Browser;
let file: string;

beforeAll(async () => {
  const [, baseline, current] = viewRuns();
  if (!baseline || !current) throw new Error('no runs');
  file = path.join(mkdtempSync(path.join(tmpdir(), 'holodeck-report-')), 'report.html');
  writeFileSync(
    file,
    writeHtmlReport(current, { baseline: { report: baseline, comparison: compareRuns(current, baseline) } }),
  );
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('the HTML report opened from disk', () => {
  it('shows the run, a failed case and the comparison, making no network request at all', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const url = pathToFileURL(file).href;
    await page.goto(url);
    await drawn(page);
    expect(await page.title()).toBe('Run 2026-11-30 09:00:00 UTC of support-agent · HoloDeck');
    for (const role of ['banner', 'main', 'contentinfo'] as const)
      await expect(page.getByRole(role).count()).resolves.toBe(1);
    await screenshot(page, 'report-run');
    await page.selectOption('#filter-status', 'failed');
    // Failures first by default: the flaky failure before the plain one.
    expect(await page.locator('table.cases tbody th a').allInnerTexts()).toEqual([
      'order-status',
      'refund-timing',
    ]);
    await page.getByRole('link', { name: 'refund-timing' }).click();
    await page.waitForSelector('.attempt');
    expect(new URL(page.url()).hash).toBe('#/runs/run-3/cases/refund-timing');
    expect(await page.locator('table.metrics').first().innerText()).toContain(JUDGE_REASON.split('\n')[0]);
    await page.goBack();
    await page.waitForSelector('table.cases');
    await page.getByRole('link', { name: 'Compare with the baseline' }).click();
    await page.waitForSelector('table.compare');
    expect(await page.locator('main').innerText()).toContain(
      // One attempt each: a flip from pass to fail alone is not significant (issue 20's compare).
      'No significant change, but the status or metrics moved (2)',
    );
    await screenshot(page, 'report-compare');
    // The document itself is the only thing loaded: no script, style, image, font or fetch.
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
