// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's locator.innerText()
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonReport } from '../../../src/runner/report/write-json-report.js';
import { serveView, type ViewServer } from '../../../src/view/serve-view.js';
import { runReport } from '../../unit/runner/report/report-builder.js';
import { runsFolder, viewRuns } from '../../unit/view/view-runs.js';
import { drawn, launchBrowser } from './view-browser.js';

let browser: Browser;
let server: ViewServer;
let runsDir: string;

beforeAll(async () => {
  runsDir = runsFolder(viewRuns());
  server = await serveView({ runsDir });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('holodeck test view in many tabs', () => {
  it('seven tabs of one browser all load and all follow live updates (one event stream per browser)', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    const errors: string[] = [];
    const pages = [];
    for (let index = 0; index < 7; index++) {
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(String(error)));
      // Each tab on its own page: the runs list, a run, a case.
      const address = ['', 'runs/run-3', 'runs/run-3/cases/refund-timing'][index % 3] ?? '';
      await page.goto(`${server.url}${address}`);
      await drawn(page);
      pages.push(page);
    }
    const runsPages = pages.filter((_, index) => index % 3 === 0);
    for (const page of runsPages) expect(await page.locator('table.runs tbody tr').count()).toBe(3);

    // A new run: every tab on the runs page shows it without a reload.
    const [, , newest] = viewRuns();
    if (!newest) throw new Error('no run');
    writeFileSync(
      path.join(runsDir, 'run-4.json'),
      writeJsonReport(runReport(newest.cases, { run_id: 'run-4', started_at: '2026-12-01T09:00:00.000Z' })),
    );
    for (const page of runsPages)
      await expect.poll(() => page.locator('table.runs tbody tr').count(), { timeout: 30_000 }).toBe(4);
    // A changed run: every tab showing it (its run page, its case pages) redraws it.
    const changed = runReport(
      newest.cases.map((testCase) => ({ ...testCase, tags: [...testCase.tags, 'rerun'] })),
      { run_id: 'run-3', started_at: newest.started_at },
    );
    writeFileSync(path.join(runsDir, 'run-3.json'), writeJsonReport(changed));
    for (const page of pages.filter((_, index) => index % 3 === 1))
      await expect
        .poll(() => page.locator('#filter-tag option[value="rerun"]').count(), { timeout: 30_000 })
        .toBe(1);
    for (const page of pages.filter((_, index) => index % 3 === 2))
      await expect.poll(() => page.locator('dl.facts').innerText(), { timeout: 30_000 }).toContain('rerun');

    // Closing the tab that holds the stream hands it to another: updates keep arriving.
    await pages[0]?.close();
    const survivor = runsPages[1];
    if (!survivor) throw new Error('no second runs tab');
    writeFileSync(
      path.join(runsDir, 'run-5.json'),
      writeJsonReport(runReport(newest.cases, { run_id: 'run-5', started_at: '2026-12-02T09:00:00.000Z' })),
    );
    await expect.poll(() => survivor.locator('table.runs tbody tr').count(), { timeout: 30_000 }).toBe(5);
    // An eighth tab still loads.
    const eighth = await context.newPage();
    await eighth.goto(`${server.url}runs/run-5`);
    await drawn(eighth);
    expect(errors).toEqual([]);
    await context.close();
  });
});
