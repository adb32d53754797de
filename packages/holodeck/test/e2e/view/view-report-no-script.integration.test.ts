// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's locator.innerText() (rendered text, line breaks kept)
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../../../src/runner/report/compare-runs.js';
import { writeHtmlReport } from '../../../src/view/write-html-report.js';
import { MARKUP_CASE, viewRuns } from '../../unit/view/view-runs.js';
import { launchBrowser, screenshot } from './view-browser.js';

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

describe('the HTML report with JavaScript disabled (a CI artifact viewer that sandboxes scripts)', () => {
  it('shows the run page: totals, every case, why each failed', async () => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    expect(await page.title()).toBe('Run 2026-11-30 09:00:00 UTC of support-agent · HoloDeck');
    expect(await page.locator('html').getAttribute('data-ready')).toBeNull(); // no script ran
    expect(await page.locator('h1').innerText()).toContain('Run 2026-11-30 09:00:00 UTC of support-agent');
    expect(await page.locator('ul.totals').innerText()).toContain('failed');
    expect(await page.locator('table.cases tbody th a').allInnerTexts()).toEqual([
      'escalation',
      'order-status',
      'refund-timing',
      'big-refund',
      MARKUP_CASE,
    ]);
    expect(
      await page
        .locator('table.cases tbody tr', { hasText: 'refund-timing' })
        .locator('.why-cell')
        .innerText(),
    ).toBe('bleu 0.31 < 0.60\nhelpfulness 0.20 < 0.70');
    expect(await page.locator('main').innerText()).toContain(
      'Without JavaScript this file shows the run page only',
    );
    expect(await page.locator('main').innerText()).not.toContain('Loading…');
    await screenshot(page, 'report-no-script');
    await context.close();
  });

  it('with JavaScript the script takes the prerendered page over: the case pages open', async () => {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('html[data-ready="true"]');
    expect(await page.locator('main').innerText()).not.toContain('Without JavaScript');
    await page.getByRole('link', { name: 'refund-timing' }).click();
    await page.waitForSelector('.attempt');
    await page.close();
  });
});
