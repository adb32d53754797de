// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's locator.innerText() (rendered text, line breaks kept), not the DOM property
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeJsonReport } from '../../../src/runner/report/write-json-report.js';
import { serveView, type ViewServer } from '../../../src/view/serve-view.js';
import { runReport } from '../../unit/runner/report/report-builder.js';
import { JUDGE_REASON, MARKUP_CASE, runsFolder, viewRuns } from '../../unit/view/view-runs.js';
import { drawn, launchBrowser, screenshot } from './view-browser.js';

let browser: Browser;
let server: ViewServer;
let runsDir: string;
let page: Page;
const dialogs: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  runsDir = runsFolder(viewRuns());
  server = await serveView({ runsDir });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  page.on('console', (message) => {
    // A 404 answer (the not-found test asks for one) is logged by Chromium; nothing else may be.
    if (message.type() === 'error' && !message.text().includes('status of 404 (Not Found)'))
      pageErrors.push(message.text());
  });
});
afterEach(async () => {
  await page.close();
  expect(pageErrors).toEqual([]); // CSP violations and script errors land here
  expect(dialogs).toEqual([]);
});

describe('holodeck test view in Chromium', () => {
  it('lists the runs with the chart and the configuration change, under a title and landmarks', async () => {
    await page.goto(server.url);
    await drawn(page);
    expect(await page.title()).toBe('Runs of support-agent · HoloDeck');
    for (const role of ['banner', 'main', 'contentinfo'] as const)
      await expect(page.getByRole(role).count()).resolves.toBe(1);
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).count()).resolves.toBe(1);
    const rows = page.locator('table.runs tbody tr');
    expect(await rows.count()).toBe(3);
    expect(await rows.nth(1).innerText()).toContain('configuration changed (c3c3c3c)');
    expect(await page.locator('figure.chart svg[role="group"]').getAttribute('aria-label')).toContain(
      '3 runs',
    );
    expect(await page.locator('.chart .change-mark').count()).toBe(1);
    expect(await page.locator('.chart .pass-point').count()).toBe(3);
    await screenshot(page, 'runs', { docs: true });
  });

  it('finds why a case failed in three clicks: run, case, the judge reason in full', async () => {
    await page.goto(server.url);
    await drawn(page);
    await page.locator('table.runs tbody tr').first().getByRole('link').first().click(); // 1
    await page.waitForSelector('table.cases');
    expect(await page.title()).toBe('Run 2026-11-30 09:00:00 UTC of support-agent · HoloDeck');
    await page.getByRole('link', { name: 'refund-timing' }).click(); // 2
    await page.waitForSelector('.attempt');
    const why = page.locator('section.why');
    expect(await why.innerText()).toContain('helpfulness 0.20 < 0.70');
    // The judge's reason in full, line breaks kept.
    expect(
      await page.locator('table.metrics .reason').filter({ hasText: 'warehouse check' }).first().innerText(),
    ).toBe(JUDGE_REASON);
    expect(await page.locator('.conversation').innerText()).toContain('lookup_order');
    await screenshot(page, 'case-failed', { docs: true });
  });

  it('marks a flaky case with pass@k and pass^k, and shows each attempt', async () => {
    await page.goto(`${server.url}runs/run-3`);
    await drawn(page);
    const row = page.locator('table.cases tbody tr').filter({ hasText: 'order-status' });
    expect(await row.innerText()).toMatch(/failed\s+flaky[\s\S]*2\/3[\s\S]*pass@3 1\.00 · pass\^3 0\.30/);
    await row.getByRole('link').click();
    await page.waitForSelector('.attempt');
    expect(await page.locator('section.attempt h2').allInnerTexts()).toEqual([
      'Attempt 1 passed',
      'Attempt 2 failed',
      'Attempt 3 passed',
    ]);
    await page.getByRole('button', { name: 'Attempt 2: failed' }).click();
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('attempt-2');
    await screenshot(page, 'case-flaky');
  });

  it('filters by status, tag and text, sorts by a column, and keeps it in the address', async () => {
    await page.goto(`${server.url}runs/run-3`);
    await drawn(page);
    const names = () => page.locator('table.cases tbody th a').allInnerTexts();
    await page.selectOption('#filter-status', 'failed');
    // Failures first by default: the flaky failure before the plain one (as the status sort orders them).
    expect(await names()).toEqual(['order-status', 'refund-timing']);
    await page.selectOption('#filter-status', 'flaky');
    expect(await names()).toEqual(['order-status']);
    await page.selectOption('#filter-status', 'all');
    await page.selectOption('#filter-tag', 'smoke');
    expect(await names()).toEqual(['order-status']);
    await page.selectOption('#filter-tag', '');
    await page.fill('#filter-text', 'order');
    expect(await names()).toEqual(['order-status']);
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('filter-text'); // typing goes on
    await page.fill('#filter-text', '');
    await page.getByRole('button', { name: 'Score: sort ascending' }).click();
    expect((await names())[0]).toBe('escalation');
    await page.getByRole('button', { name: 'Score: sort descending' }).click();
    expect(await page.locator('th[aria-sort="descending"]').innerText()).toContain('Score');
    expect(new URL(page.url()).search).toBe('?sort=score&dir=desc');
    await page.reload();
    await drawn(page);
    expect(await page.locator('th[aria-sort="descending"]').innerText()).toContain('Score');
    await screenshot(page, 'run-sorted');
  });

  it('works from the keyboard: skip link, links, sort buttons, focus on the new heading', async () => {
    await page.goto(server.url);
    await drawn(page);
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe(
      'Skip to content',
    );
    await page.keyboard.press('Enter');
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('main');
    // Tab to the newest run's link and follow it.
    for (let step = 0; step < 10; step += 1) {
      await page.keyboard.press('Tab');
      const text = await page.evaluate<string>("document.activeElement?.textContent ?? ''");
      if (text.startsWith('2026-11-30')) break;
    }
    await page.keyboard.press('Enter');
    await page.waitForSelector('table.cases');
    expect(await page.evaluate<string | undefined>('document.activeElement?.tagName')).toBe('H1');
    await page.focus('[data-sort="name"]');
    await page.keyboard.press('Enter');
    expect(await page.locator('th[aria-sort="ascending"]').innerText()).toContain('Case');
    expect(await page.evaluate<string | undefined>("document.activeElement?.getAttribute('data-sort')")).toBe(
      'name',
    );
  });

  it('compares two runs: the previous by default, regressions, new and removed cases, deltas', async () => {
    await page.goto(`${server.url}runs/run-3`);
    await drawn(page);
    await page.getByRole('link', { name: 'Compare with the previous run' }).click();
    await page.waitForSelector('table.compare');
    const text = await page.locator('main').innerText();
    expect(text).toContain(
      // One attempt each: a flip from pass to fail alone is not significant (issue 20's compare).
      'No significant change, but the status or metrics moved (2)',
    );
    expect(text).toContain('New cases (3)');
    expect(text).toContain('Removed cases (1)');
    expect(await page.locator('table.compare-totals').innerText()).toMatch(/Cost\s+\$0\.05/);
    await page.selectOption('#compare-baseline', 'run-1');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.waitForURL(/\/compare\/run-3\/run-1$/);
    await page.locator('table.compare-totals', { hasText: 'run-1' }).waitFor();
    await screenshot(page, 'compare');
  });

  it('shows text from a run as text, never as markup', async () => {
    await page.goto(`${server.url}runs/run-3`);
    await drawn(page);
    expect(await page.getByRole('link', { name: MARKUP_CASE }).count()).toBe(1);
    expect(await page.locator('main img').count()).toBe(0);
  });

  it('answers an unknown run with a not-found page', async () => {
    const response = await page.goto(`${server.url}runs/no-such-run`);
    expect(response?.status()).toBe(404);
    await drawn(page);
    expect(await page.title()).toBe('Not found · HoloDeck');
    expect(await page.locator('main').innerText()).toContain('No saved run has the id "no-such-run".');
  });

  it('updates a run in progress without a reload', async () => {
    const [, , newest] = viewRuns();
    if (!newest) throw new Error('no run');
    const live = (count: number, inProgress: boolean) =>
      runReport(newest.cases.slice(0, count), {
        run_id: 'run-live',
        started_at: '2026-12-01T09:00:00.000Z',
        ...(inProgress ? { in_progress: { planned_cases: 3 } } : {}),
      });
    const file = path.join(runsDir, 'run-live.json');
    writeFileSync(file, writeJsonReport(live(1, true)));
    await page.goto(`${server.url}runs/run-live`);
    await drawn(page);
    await page.evaluate("window.marker = 'same page'");
    expect(await page.locator('#live-status').innerText()).toContain('1 of 3 cases finished');
    writeFileSync(file, writeJsonReport(live(2, true)));
    // Locator waits: a string predicate would be evaluated in the page, which its CSP forbids.
    await expect.poll(() => page.locator('table.cases tbody tr').count(), { timeout: 15_000 }).toBe(2);
    writeFileSync(file, writeJsonReport(live(3, false)));
    await page.locator('#live-status').waitFor({ state: 'detached', timeout: 15_000 });
    expect(await page.locator('table.cases tbody tr').count()).toBe(3);
    expect(await page.evaluate<string | undefined>('window.marker')).toBe('same page');
  });
});
