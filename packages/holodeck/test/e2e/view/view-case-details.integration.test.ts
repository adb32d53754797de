// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's locator.innerText() (rendered text, line breaks kept)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CaseReport } from '../../../src/runner/report/run-report.js';
import { writeJsonReport } from '../../../src/runner/report/write-json-report.js';
import { serveView, type ViewServer } from '../../../src/view/serve-view.js';
import { attempt, bleu, testCase, toolCalled } from '../../unit/runner/report/report-builder.js';
import { runsFolder, viewRuns } from '../../unit/view/view-runs.js';
import { drawn, launchBrowser, screenshot } from './view-browser.js';

/** A case failing the same way in two of three attempts: its reason is listed once. */
const repeatedFailure = (): CaseReport =>
  testCase('repeated-failure', [
    attempt({ attempt: 1 }),
    attempt({ attempt: 2, metrics: [bleu(0.2)], response: 'Refunds take some days.' }),
    attempt({ attempt: 3, metrics: [bleu(0.2)], response: 'Refunds take some days.' }),
  ]);

/** A conversation whose turns carry the metrics and the tool expectations. */
const conversation = (): CaseReport =>
  testCase(
    'two-turns',
    [
      attempt({
        metrics: [],
        passed: false,
        response: 'It ships in 2 business days.',
        turns: [
          {
            input: 'What is the status of A-1002?',
            response: 'It is processing.',
            tool_calls: [],
            tool_results: [],
            metrics: [
              { name: 'icontains', type: 'icontains', score: 1, passed: true, reason: 'found "processing"' },
              { ...toolCalled('lookup_order', true), name: 'tool-calls', type: 'tool-calls' },
            ],
            passed: true,
          },
          {
            input: 'And when will it ship?',
            response: 'It ships in 2 business days.',
            tool_calls: [],
            tool_results: [],
            metrics: [
              {
                name: 'contains',
                type: 'contains',
                score: 0,
                passed: false,
                reason: 'the response contains none of "tomorrow"',
              },
            ],
            passed: false,
          },
        ],
      }),
    ],
    { input: 'What is the status of A-1002?' },
  );

/** An answer in Markdown with HTML in it, a function tool's JSON result and a Novarch refusal. */
const toolsAndMarkdown = (): CaseReport =>
  testCase('refund-refused', [
    attempt({
      metrics: [bleu(0.9)],
      response:
        'Your order **A-1001** has *shipped*:\n\n- carrier: DHL\n- total: $54.90\n\n<img src=x onerror=alert(1)>',
      tool_calls: [
        {
          name: 'mcp__holodeck_tools__lookup_order',
          arguments: { order_id: 'A-1001' },
          call_id: 'toolu_01ABCDEF',
        },
        {
          name: 'mcp__holodeck_tools__refund_order',
          arguments: { order_id: 'A-1001', amount: 900 },
          call_id: 'toolu_02ABCDEF',
        },
      ],
      tool_results: [
        { call_id: 'toolu_01ABCDEF', result: '{"status":"shipped","carrier":"DHL"}', is_error: false },
        {
          call_id: 'toolu_02ABCDEF',
          result:
            'PreToolUse:mcp__holodeck_tools__refund_order hook error: Novarch: killed: refunds over 500 need a human [rules: TEAM-2]',
          is_error: true,
        },
      ],
    }),
  ]);

let browser: Browser;
let server: ViewServer;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const runs = viewRuns();
  const newest = runs[2];
  if (!newest) throw new Error('no run');
  newest.cases.push(repeatedFailure(), conversation(), toolsAndMarkdown());
  const runsDir = runsFolder(runs);
  writeFileSync(path.join(runsDir, 'run-3.json'), writeJsonReport(newest));
  server = await serveView({ runsDir });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (error) => pageErrors.push(String(error)));
});
afterEach(async () => {
  await page.close();
  expect(pageErrors).toEqual([]);
});

describe('the run table says why', () => {
  it('lists failures first with their failing metrics and scores; a column per metric on demand', async () => {
    await page.goto(`${server.url}runs/run-3`);
    await drawn(page);
    const names = await page.locator('table.cases tbody th a').allInnerTexts();
    expect(names).toEqual([
      'escalation', // errored
      'order-status', // failed, flaky
      'repeated-failure',
      'refund-timing',
      'two-turns',
      'big-refund', // passed, in suite order
      '<img src=x onerror=alert(1)> tricky',
      'refund-refused',
    ]);
    expect(await page.locator('table.cases caption').innerText()).toContain('failures first');
    const why = (name: string) =>
      page.locator('table.cases tbody tr', { hasText: name }).locator('.why-cell').innerText();
    expect(await why('refund-timing')).toBe('bleu 0.31 < 0.60\nhelpfulness 0.20 < 0.70');
    expect(await why('order-status')).toBe('2 of 3 attempts passed\nbleu 0.30 < 0.60');
    expect(await why('escalation')).toBe('API error 529: Overloaded (after 3 retries)');
    expect(await why('two-turns')).toBe('turn 2 contains failed');
    expect(await why('big-refund')).toBe('—');
    await page.check('#filter-metrics');
    await expect
      .poll(() => page.locator('th.metric-col').allInnerTexts())
      .toEqual(['bleu', 'helpfulness', 'turn 1 icontains', 'turn 1 tool-calls', 'turn 2 contains']);
    expect(new URL(page.url()).search).toBe('?columns=metrics');
    const cells = await page
      .locator('table.cases tbody tr', { hasText: 'refund-timing' })
      .locator('td.num')
      .allTextContents();
    expect(cells.slice(-5)).toEqual(['0.31 failed ✗', '0.20 failed ✗', '—', '—', '—']);
    await screenshot(page, 'run-why-columns');
  });
});

describe('the runs chart', () => {
  it('spans the page width, and each point links to its run', async () => {
    await page.goto(server.url);
    await drawn(page);
    const chart = await page.locator('figure.chart svg').boundingBox();
    const main = await page.locator('main').boundingBox();
    if (!chart || !main) throw new Error('no chart');
    expect(chart.width).toBeGreaterThan(main.width - 60); // main's padding
    const links = page.locator('figure.chart a.point-link');
    expect(await links.count()).toBe(3);
    expect(await links.first().getAttribute('aria-label')).toBe(
      '2026-11-28 09:00:00 UTC · run-1: 100.0% passed, $0.0189',
    );
    await links.last().click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/runs/run-3');
    await drawn(page);
  });

  it('writes numbers with one precision per kind: percent, score, cost, duration', async () => {
    await page.goto(`${server.url}runs/run-3`);
    await drawn(page);
    const totals = await page.locator('ul.totals').first().innerText();
    expect(totals).toMatch(/^\d+\.\d% passed/);
    expect(totals).toMatch(/\$\d+\.\d{4} cost/);
    const row = page.locator('table.cases tbody tr', { hasText: 'refund-timing' });
    expect(await row.locator('td.num').allTextContents()).toEqual(['1', '0.26', '0/1', '1.2 s', '$0.0063']);
  });
});

describe('the case page', () => {
  it('shows input, ground truth and output side by side, with the diffs to the expected output and the previous run', async () => {
    await page.goto(`${server.url}runs/run-3/cases/refund-timing`);
    await drawn(page);
    const panels = await page.locator('.side-by-side .panel h3').allInnerTexts();
    expect(panels).toEqual(['Input', 'Ground truth', 'Output']);
    expect(await page.locator('.side-by-side .panel').nth(2).innerText()).toContain('Refunds take a while.');
    const diff = page.locator('.diff-box').first();
    expect(await diff.locator('summary').innerText()).toBe('Output against the ground truth');
    expect(await diff.locator('.diff del').first().innerText()).toContain('only in ground truth');
    expect(await diff.locator('.diff').textContent()).toBe(
      'Refunds take [only in ground truth: up to 14 days after the return arrives.][only in output: a while.]',
    );
    const previous = page.locator('.diff-box', { hasText: 'previous run' });
    expect(await previous.locator('summary').innerText()).toBe(
      'Output against the same case in the previous run (run-2, passed)',
    );
  });

  it('groups a reason repeated over attempts, and shows how a flaky case’s attempts differed', async () => {
    await page.goto(`${server.url}runs/run-3/cases/repeated-failure`);
    await drawn(page);
    expect(await page.locator('.why li').allInnerTexts()).toEqual([
      'bleu 0.20 < 0.60 (attempts 2, 3): BLEU 0.2 against the ground truth',
    ]);
    const differences = page.locator('.differences');
    expect(await differences.locator('p').first().innerText()).toBe('Attempts 1 passed; 2, 3 did not.');
    expect(await differences.locator('table tbody tr').first().innerText()).toBe(
      'bleu\t0.82 pass\t0.20 fail\t0.20 fail',
    );
    expect(await differences.locator('h3').first().innerText()).toBe(
      "Attempt 2's answer against attempt 1's",
    );
    expect(await differences.locator('.diff ins').first().innerText()).toContain('only in attempt 2');
  });

  it('a conversation: every turn in the header, each turn’s metrics beside it, no "No metrics"', async () => {
    await page.goto(`${server.url}runs/run-3/cases/two-turns`);
    await drawn(page);
    expect(await page.locator('.side-by-side .panel').first().innerText()).toBe(
      'Inputs (2 turns)\nWhat is the status of A-1002?\nAnd when will it ship?',
    );
    const turns = page.locator('.attempt li.turn');
    expect(await turns.count()).toBe(2);
    expect(await turns.nth(0).locator('.turn-metrics caption').innerText()).toBe('Metrics of turn 1');
    expect(await turns.nth(1).locator('.turn-metrics').innerText()).toContain(
      'the response contains none of "tomorrow"',
    );
    const text = await page.locator('main').innerText();
    expect(text).not.toContain('No metrics.');
    expect(text).not.toContain('This case sets no tool expectations.');
    expect(text).toContain('Set per turn (beside each turn above).');
    await screenshot(page, 'case-conversation');
  });

  it('renders answers as safe Markdown; tool cards without SDK ids or prefixes, results pretty-printed, refusals read', async () => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${server.url}runs/run-3/cases/refund-refused`);
    await drawn(page);
    const answer = page.locator('.attempt .msg-assistant .md');
    expect(await answer.locator('strong').innerText()).toBe('A-1001');
    expect(await answer.locator('li').allInnerTexts()).toEqual(['carrier: DHL', 'total: $54.90']);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await answer.innerText()).toContain('<img src=x onerror=alert(1)>');
    const cards = page.locator('.attempt .msg-tool');
    expect(await cards.locator('.who code').allInnerTexts()).toEqual(['lookup_order', 'refund_order']);
    expect(await page.locator('main').innerText()).not.toContain('toolu_01ABCDEF');
    expect(await cards.nth(0).locator('pre[aria-label="result"]').innerText()).toBe(
      '{\n  "status": "shipped",\n  "carrier": "DHL"\n}',
    );
    const refused = cards.nth(1);
    expect(await refused.locator('.badge').innerText()).toBe('refused by Novarch');
    expect(await refused.locator('.reason').innerText()).toBe('killed: refunds over 500 need a human');
    expect(await refused.locator('code.cite').innerText()).toBe('TEAM-2');
    expect(await refused.innerText()).not.toContain('PreToolUse');
    expect(dialogs).toEqual([]);
    await screenshot(page, 'case-tools-markdown');
  });

  it('j and k step through the cases of the run (in suite order)', async () => {
    await page.goto(`${server.url}runs/run-3/cases/refund-timing`);
    await drawn(page);
    await page.keyboard.press('j');
    await expect.poll(() => page.locator('h1').innerText()).toContain('order-status');
    expect(new URL(page.url()).pathname).toBe('/runs/run-3/cases/order-status');
    await page.keyboard.press('k');
    await expect.poll(() => page.locator('h1').innerText()).toContain('refund-timing');
    // On the run page they move the focus along the cases.
    await page.goto(`${server.url}runs/run-3`);
    await drawn(page);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe(
      'order-status',
    );
  });
});
