import { readFileSync } from 'node:fs';
import path from 'node:path';
import { waitUntil } from '@holodeck/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { serveView, type ViewServer } from '../../../src/view/serve-view.js';
import { labelledAgent } from '../../unit/view/labelled-agent.js';
import { drawn, launchBrowser, screenshot } from './view-browser.js';

let browser: Browser;
let server: ViewServer;
let page: Page;
let folder: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  const agent = await labelledAgent();
  folder = agent.folder;
  // The token is the server's own random one here, as `holodeck test view --writable` makes it.
  const { token: _token, ...writer } = agent.writer;
  server = await serveView({ runsDir: agent.runsDir, labels: writer });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (error) => pageErrors.push(String(error)));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('labelling a judge verdict from the case page (holodeck test view --writable)', () => {
  it('clicks fail, writes a comment, saves, and the label is in the labels file', async () => {
    await page.goto(`${server.url}runs/run-3/cases/refund-timing`);
    await drawn(page);
    const form = page.locator('form[data-label-form][data-metric="helpfulness"]');
    await expect(form.locator('legend').textContent()).resolves.toBe(
      'Judge "helpfulness": should this answer pass?',
    );
    await form.getByLabel('fail').check();
    await form.getByLabel('Comment (optional)').fill('It never says <when> the refund arrives.');
    await form.getByRole('button', { name: 'Save label' }).click();
    const status = form.locator('[role="status"]');
    await status.filter({ hasText: 'Labelled' }).waitFor({ timeout: 15_000 });
    expect(await status.textContent()).toBe('Labelled fail for judge "helpfulness" in labels.yaml.');
    const file = path.join(folder, 'labels.yaml');
    await waitUntil(() => readFileSync(file, 'utf8').includes('label: fail'), {
      timeoutMs: 5_000,
      what: 'labels.yaml to hold the label',
    });
    expect(parse(readFileSync(file, 'utf8')).examples).toEqual([
      expect.objectContaining({
        output: 'Refunds take a while.',
        label: 'fail',
        comment: 'It never says <when> the refund arrives.',
        source: 'run run-3, case refund-timing, attempt 1',
      }),
    ]);
    await screenshot(page, 'case-label-control');
    expect(pageErrors).toEqual([]);
  });

  it('a page of another origin cannot write a label (the server refuses it)', async () => {
    const other = await browser.newPage();
    await other.goto('about:blank');
    const answer = await other.evaluate(async (url) => {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ metric: 'helpfulness', label: 'pass' }),
        });
        return `${response.status}`;
      } catch (error) {
        return `blocked: ${String(error)}`;
      }
    }, `${server.url}api/runs/run-3/cases/refund-timing/labels`);
    await other.close();
    // Either the browser blocks it or the server answers 403; the file never gains a label.
    expect(answer === '403' || answer.startsWith('blocked')).toBe(true);
    expect(parse(readFileSync(path.join(folder, 'labels.yaml'), 'utf8')).examples).toHaveLength(1);
  });
});
