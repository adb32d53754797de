import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveView, type ViewServer } from '../../../src/view/serve-view.js';
import { runsFolder, viewRuns } from '../../unit/view/view-runs.js';
import { drawn, launchBrowser, screenshot } from './view-browser.js';

// axe-core in the real Chromium, on every kind of page, at desktop and phone width: no serious or
// critical violation, no horizontal overflow of the page, and every scrolling table reachable
// from the keyboard.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const PAGES = [
  '',
  'runs/run-3',
  'runs/run-3?columns=metrics',
  'runs/run-3/cases/refund-timing',
  'runs/run-3/cases/order-status',
  'compare/run-3',
];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

let browser: Browser;
let server: ViewServer;

beforeAll(async () => {
  server = await serveView({ runsDir: runsFolder(viewRuns()) });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function check(context: BrowserContext, address: string, name: string) {
  const page = await context.newPage();
  await page.goto(`${server.url}${address}`);
  await drawn(page);
  // The CSP forbids inline scripts; this context bypasses it for axe alone.
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate<AxeViolation[]>(
    'axe.run(document, { resultTypes: ["violations"] }).then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))',
  );
  const serious = violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  const overflow = await page.evaluate<number>(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  // What sticks out, to say where the overflow comes from.
  const wide = overflow
    ? await page.evaluate<string[]>(
        `[...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !el.closest('.table-wrap')).slice(0, 8).map((el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '') + ' ' + Math.round(el.getBoundingClientRect().right))`,
      )
    : [];
  await screenshot(page, name);
  await page.close();
  return { serious, overflow, wide };
}

describe('the view is accessible', () => {
  it.each([
    ['desktop', 1280, 900],
    ['phone', 375, 740],
  ])(
    'at %s width: 0 serious axe violations and no horizontal overflow on every page',
    async (label, width, height) => {
      const context = await browser.newContext({ viewport: { width, height }, bypassCSP: true });
      for (const address of PAGES) {
        const { serious, overflow, wide } = await check(
          context,
          address,
          `a11y-${label}-${address.replace(/[^a-z0-9]+/gi, '-') || 'runs'}`,
        );
        expect({ address, serious }).toEqual({ address, serious: [] });
        expect({ address, overflow, wide }).toEqual({ address, overflow: 0, wide: [] });
      }
      await context.close();
    },
  );
});
