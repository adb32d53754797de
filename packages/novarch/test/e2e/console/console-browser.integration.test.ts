import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@holodeck/testkit/browser';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HoldRecord, NovarchToolGovernor } from '../../../src/index.js';
import { type ConsoleWorld, createConsoleWorld, HOSTILE } from '../../console-support/console-world.js';
import { serveConsole } from './serve-console.js';

// The console in a real headless Chromium (playwright-core + the Chromium of @sparticuz/chromium),
// served on a loopback port over a real SQLite store, with agents waiting on holds through the engine.

const ARTIFACTS = fileURLToPath(new URL('../../../../../test-artifacts/console/', import.meta.url));
/** Rewritten with NOVARCH_UPDATE_README_IMAGES=1. */
const README_IMAGE = fileURLToPath(new URL('../../../docs/images/console-triage.png', import.meta.url));

let browser: Browser;
let world: ConsoleWorld;
let served: Awaited<ReturnType<typeof serveConsole>>;
const contexts: BrowserContext[] = [];
/** Agents waiting on holds: a failed test must not leave them polling a closed store. */
const waiters: { controller: AbortController; done: Promise<unknown> }[] = [];

/** The agent's side of a hold: waits on it through the engine, as the gate does. */
function agentWaits(hold: HoldRecord | undefined): Promise<HoldRecord> {
  if (hold === undefined) throw new Error('the refund was expected to be held');
  const controller = new AbortController();
  const done = world.engine.awaitHold(hold, controller.signal);
  waiters.push({ controller, done: done.catch(() => undefined) });
  return done;
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
});
afterEach(async () => {
  for (const waiter of waiters.splice(0)) {
    waiter.controller.abort();
    await waiter.done;
  }
  for (const context of contexts.splice(0)) await context.close();
  await served?.close();
  await world?.close();
});
afterAll(() => browser?.close());

async function start(): Promise<void> {
  world = await createConsoleWorld({ eventsPollMs: 200 });
  served = await serveConsole(world);
}

/** A new browser (own cookies) with its page errors collected: the CSP must never fire. */
async function signedInPage(token: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${served.url}/console`);
  await expect.poll(() => page.title()).toBe('Sign in · Novarch console');
  await page.getByLabel('Operator token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${served.url}/console`);
  return { page, errors };
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });

describe('the operator console in Chromium', () => {
  it('sign-in fails with its message, then succeeds; a hold appears live and is approved with the keyboard', async () => {
    await start();
    const context = await browser.newContext();
    contexts.push(context);
    const first = await context.newPage();
    await first.goto(`${served.url}/console/sign-in`);
    await first.getByLabel('Operator token').fill('nvo_wrong_secret');
    await first.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => first.getByRole('alert').textContent())
      .toBe('Sign-in failed: the operator token is unknown or revoked.');
    await shot(first, 'sign-in-failed');

    const { page, errors } = await signedInPage('nvo_ana_secret');
    await expect.poll(() => page.locator('#queue-empty').isVisible()).toBe(true);

    // An agent asks for two refunds over 500 while the page is open; both wait for an operator.
    const held = await world.refund({
      tenantId: 'acme',
      amount: 900,
      reasoning: HOSTILE,
      customer: 'C-1001',
    });
    const other = await world.refund({
      tenantId: 'acme',
      agentId: 'billing-bot',
      amount: 750,
      customer: 'C-2002',
    });
    const waiting = agentWaits(held.hold);
    const waitingOther = agentWaits(other.hold);
    const card = page.locator(`#hold-${held.hold?.id}`);
    await card.waitFor();
    await page.locator(`#hold-${other.hold?.id}`).waitFor();
    await expect.poll(() => page.locator('#queue-count').textContent()).toBe('2');
    // The hostile rationale is shown as text, marked as the agent's, and never ran.
    await expect.poll(() => card.locator('.rationale blockquote').textContent()).toBe(HOSTILE);
    expect(await card.locator('.rationale .badge').textContent()).toBe('supplied by the agent, unverified');
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect.poll(() => card.locator('.countdown').textContent()).toMatch(/^[45] min \d+ s left$/);
    await card.locator('details.evidence > summary').click();
    await card.locator('details.recent > summary').click();
    // The README's picture is rewritten only on request, so test runs leave the tree unchanged.
    if (process.env.NOVARCH_UPDATE_README_IMAGES === '1') await page.screenshot({ path: README_IMAGE });
    await shot(page, 'triage-live');

    // j/k move the selection; `a` asks to approve the selected hold, Enter confirms.
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    expect(await card.getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('a');
    await expect
      .poll(() => card.locator('.confirm-text').textContent())
      .toBe('Approve this write? The agent’s action runs and cannot be called back.');
    expect((await world.store.getHold(held.hold?.id ?? ''))?.status).toBe('pending');
    await page.keyboard.press('Enter');
    await expect.poll(() => card.locator('.outcome').textContent()).toMatch(/^Approved by ana at .+\.$/);
    expect(await card.locator('button.approve').isDisabled()).toBe(true);
    expect(await waiting).toMatchObject({ status: 'approved', decidedBy: 'ana' });
    expect((await world.engine.release(held)).released).toBe(true);

    // `?` opens the help; Escape closes it.
    await page.keyboard.press('?');
    await expect.poll(() => page.locator('#help').isVisible()).toBe(true);
    await shot(page, 'triage-help');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#help').isVisible()).toBe(false);

    await world.store.decideHold(other.hold?.id ?? '', 'approved', 'cleanup');
    await waitingOther;
    expect(errors).toEqual([]);
  });

  it('deny needs a rationale: the agent is told it', async () => {
    await start();
    const { page, errors } = await signedInPage('nvo_ana_secret');
    const held = await world.refund({ tenantId: 'acme', amount: 900 });
    const waiting = agentWaits(held.hold);
    const card = page.locator(`#hold-${held.hold?.id}`);
    await card.waitFor();
    await page.keyboard.press('d');
    await expect
      .poll(() => card.locator('.outcome').textContent())
      .toBe('A deny needs a rationale: the agent is told why. Type it, then deny again.');
    // The field has the focus: type, leave it with Escape, deny.
    await page.keyboard.type('over the monthly limit');
    await page.keyboard.press('Escape');
    await page.keyboard.press('d');
    await expect
      .poll(() => card.locator('.confirm-text').textContent())
      .toBe('Deny this write? It is refused and the agent is told your rationale.');
    // Esc cancels: nothing is decided; `d` asks again and Enter confirms.
    await page.keyboard.press('Escape');
    expect(await card.locator('.confirm').isHidden()).toBe(true);
    expect((await world.store.getHold(held.hold?.id ?? ''))?.status).toBe('pending');
    await page.keyboard.press('d');
    await card.locator('.confirm-yes').waitFor();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => card.locator('.outcome').textContent())
      .toMatch(/^Denied by ana at .+: over the monthly limit\.$/);
    expect(await waiting).toMatchObject({
      status: 'denied',
      decidedBy: 'ana',
      rationale: 'over the monthly limit',
    });
    await shot(page, 'triage-denied');
    expect(errors).toEqual([]);
  });

  it('a rationale typed when the console session ends survives signing in again', async () => {
    await start();
    const { page, errors } = await signedInPage('nvo_ana_secret');
    const held = await world.refund({ tenantId: 'acme', amount: 900 });
    const waiting = agentWaits(held.hold);
    const card = page.locator(`#hold-${held.hold?.id}`);
    await card.waitFor();
    await card.locator('textarea[name="rationale"]').fill('customer already refunded twice');
    // The console session ends (expired, or signed out elsewhere) while the rationale is typed.
    await page.context().clearCookies();
    await page.keyboard.press('Escape');
    await page.keyboard.press('d');
    await card.locator('.confirm-yes').waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.title()).toBe('Sign in · Novarch console');
    await page.getByLabel('Operator token').fill('nvo_ana_secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${served.url}/console`);
    const again = page.locator(`#hold-${held.hold?.id}`);
    await expect
      .poll(() => again.locator('textarea[name="rationale"]').inputValue())
      .toBe('customer already refunded twice');
    expect(await again.locator('.outcome').textContent()).toBe(
      'Your rationale was kept while you signed in again; nothing is decided yet.',
    );
    expect((await world.store.getHold(held.hold?.id ?? ''))?.status).toBe('pending');
    await again.locator('textarea[name="rationale"]').focus();
    await page.keyboard.press('Escape');
    await page.keyboard.press('d');
    await again.locator('.confirm-yes').waitFor();
    await page.keyboard.press('Enter');
    expect(await waiting).toMatchObject({ status: 'denied', rationale: 'customer already refunded twice' });
    // The one expected: Chromium logs the decision refused as signed out (401).
    expect(errors).toEqual([
      'Failed to load resource: the server responded with a status of 401 (Unauthorized)',
    ]);
  });

  it('`s` does nothing; refusing and stopping the session needs a rationale and a confirmation', async () => {
    await start();
    const { page, errors } = await signedInPage('nvo_ana_secret');
    const held = await world.refund({ tenantId: 'acme', amount: 900 });
    const waiting = agentWaits(held.hold);
    const card = page.locator(`#hold-${held.hold?.id}`);
    await card.waitFor();
    expect(await card.getAttribute('aria-current')).toBe('true');
    // The old "skip" key: no request, no confirmation, the hold stays pending and the session live.
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST') posts++;
    });
    await page.keyboard.press('s');
    await page.keyboard.press('Enter');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(posts).toBe(0);
    expect(await card.locator('.confirm').isHidden()).toBe(true);
    expect((await world.store.getHold(held.hold?.id ?? ''))?.status).toBe('pending');
    expect((await world.store.getSession(held.session.id))?.killedAt).toBeUndefined();
    expect(await page.locator('#help dl').textContent()).not.toContain('skip');

    const stop = card.getByRole('button', { name: 'Refuse and stop session' });
    await stop.click();
    await expect
      .poll(() => card.locator('.outcome').textContent())
      .toBe('Stopping the session needs a rationale. Type it, then click again.');
    await card.locator('textarea[name="rationale"]').fill('refund loop');
    await stop.click();
    await expect
      .poll(() => card.locator('.confirm-text').textContent())
      .toBe(
        'Refuse this write and stop the agent’s session? The session can call no tool again. This cannot be undone.',
      );
    // Cancel has the focus: Enter cancels, nothing is decided.
    await page.keyboard.press('Enter');
    expect(await card.locator('.confirm').isHidden()).toBe(true);
    expect(posts).toBe(0);
    expect((await world.store.getHold(held.hold?.id ?? ''))?.status).toBe('pending');
    await stop.click();
    await card.getByRole('button', { name: 'Yes, refuse and stop the session' }).click();
    await expect
      .poll(() => card.locator('.outcome').textContent())
      .toMatch(/^Skipped by ana at .+: refund loop\.$/);
    expect(await waiting).toMatchObject({ status: 'skipped', decidedBy: 'ana', rationale: 'refund loop' });
    await shot(page, 'triage-stopped');
    expect(errors).toEqual([]);
  });

  it('seven tabs of one browser all load and get live updates over one stream; another tab takes over when its leader closes', async () => {
    await start();
    const { page: first, errors } = await signedInPage('nvo_ana_secret');
    const context = first.context();
    // The tabs that open a stream (the first tab's may open before this listens).
    const streamed: Page[] = [];
    context.on('request', (request) => {
      if (new URL(request.url()).pathname === '/console/events') streamed.push(request.frame().page());
    });
    const pages = [first];
    // Browsers allow 6 connections per host: with a stream per tab the 7th tab would never load.
    for (let index = 1; index < 7; index++) {
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${served.url}/console`);
      pages.push(page);
    }
    const roles = (tabs: Page[]) =>
      Promise.all(tabs.map((page) => page.locator('body').getAttribute('data-events-role')));
    for (const page of pages) await expect.poll(() => page.title()).toBe('Triage · Novarch console');
    await expect.poll(async () => (await roles(pages)).filter((role) => role === 'leader').length).toBe(1);
    expect((await roles(pages)).filter((role) => role === 'follower')).toHaveLength(6);

    const held = await world.refund({ tenantId: 'acme', amount: 900, customer: 'C-71' });
    const waiting = agentWaits(held.hold);
    for (const page of pages) await page.locator(`#hold-${held.hold?.id}`).waitFor();
    expect(await pages[6]?.locator('#queue-count').textContent()).toBe('1');
    const leader = pages[(await roles(pages)).indexOf('leader')] as Page;
    expect(streamed.filter((page) => page !== leader)).toEqual([]);

    // The leader closes: one of the other six opens the one stream, and they all stay live.
    await leader.close();
    const rest = pages.filter((page) => page !== leader);
    await expect.poll(async () => (await roles(rest)).filter((role) => role === 'leader').length).toBe(1);
    await world.store.decideHold(held.hold?.id ?? '', 'approved', 'bob');
    expect(await waiting).toMatchObject({ status: 'approved' });
    for (const page of rest)
      await expect
        .poll(() => page.locator(`#hold-${held.hold?.id} .outcome`).textContent())
        .toMatch(/^Approved by bob at .+\.$/);
    const next = await world.refund({ tenantId: 'acme', amount: 900, customer: 'C-72' });
    const waitingNext = agentWaits(next.hold);
    for (const page of rest) await page.locator(`#hold-${next.hold?.id}`).waitFor();
    const newLeader = rest[(await roles(rest)).indexOf('leader')];
    const opened = streamed.filter((page) => page !== leader);
    expect(opened).toHaveLength(1);
    expect(opened[0] === newLeader).toBe(true);
    await world.store.decideHold(next.hold?.id ?? '', 'approved', 'cleanup');
    await waitingNext;
    expect(errors).toEqual([]);
  });

  it('two operators race on one hold: the second sees the first decision, live or when it clicks', async () => {
    await start();
    const ana = await signedInPage('nvo_ana_secret');
    const bob = await signedInPage('nvo_bob_secret');
    const first = await world.refund({ tenantId: 'acme', amount: 900, customer: 'C-1' });
    const waitFirst = agentWaits(first.hold);
    for (const { page } of [ana, bob]) await page.locator(`#hold-${first.hold?.id}`).waitFor();

    // Ana approves with the button; Bob's open page shows her decision and stops offering it.
    await ana.page.locator(`#hold-${first.hold?.id} button.approve`).click();
    await ana.page.locator(`#hold-${first.hold?.id} .confirm-yes`).click();
    const bobsCard = bob.page.locator(`#hold-${first.hold?.id}`);
    await expect.poll(() => bobsCard.locator('.outcome').textContent()).toMatch(/^Approved by ana at .+\.$/);
    expect(await bobsCard.locator('button.approve').isDisabled()).toBe(true);
    await shot(bob.page, 'race-live');
    expect(await waitFirst).toMatchObject({ status: 'approved', decidedBy: 'ana' });

    // Bob's live updates are cut: he still sees the hold offered and clicks after Ana decided.
    await bob.page.route('**/console/events**', (route) => route.abort());
    await bob.page.reload();
    const second = await world.refund({ tenantId: 'acme', amount: 900, customer: 'C-2' });
    const waitSecond = agentWaits(second.hold);
    await ana.page.locator(`#hold-${second.hold?.id}`).waitFor();
    await bob.page.reload();
    const bobsSecond = bob.page.locator(`#hold-${second.hold?.id}`);
    await bobsSecond.waitFor();
    await ana.page.locator(`#hold-${second.hold?.id} textarea[name="rationale"]`).fill('duplicate charge');
    await ana.page.locator(`#hold-${second.hold?.id} button.deny`).click();
    await ana.page.locator(`#hold-${second.hold?.id} .confirm-yes`).click();
    expect(await waitSecond).toMatchObject({ status: 'denied', decidedBy: 'ana' });
    await bobsSecond.locator('button.approve').click();
    await bobsSecond.locator('.confirm-yes').click();
    await expect
      .poll(() => bobsSecond.locator('.outcome').textContent())
      .toMatch(
        new RegExp(
          `^Hold ${second.hold?.id} was already denied by ana at .+: duplicate charge\\. Nothing was changed\\.$`,
        ),
      );
    expect((await world.store.getHold(second.hold?.id ?? ''))?.status).toBe('denied');
    await shot(bob.page, 'race-lost');
  });

  it("kills a session from its page (reason required), and the agent's next call is refused", async () => {
    await start();
    const { page, errors } = await signedInPage('nvo_ana_secret');
    const { session } = await world.refund({ tenantId: 'acme', amount: 100, customer: 'C-9' });
    const governor = new NovarchToolGovernor({
      session: { engine: world.engine, record: session },
      toolKinds: { lookup_customer: 'read' },
    });
    const lookup = () =>
      governor.run({ toolName: 'lookup_customer', input: { customer_id: 'C-9' } }, async () => 'ok');
    expect((await lookup()).kind).toBe('ran');

    await page.getByRole('link', { name: 'Sessions' }).click();
    await page.getByRole('link', { name: session.id }).click();
    await expect.poll(() => page.title()).toBe(`Session ${session.id} · Novarch console`);
    expect(await page.locator('.timeline .event').count()).toBe(3);
    // The reason is required by the form itself.
    await page.getByRole('button', { name: 'Kill session' }).click();
    expect(await page.locator('#kill-reason:invalid').count()).toBe(1);
    expect((await world.store.getSession(session.id))?.killedAt).toBeUndefined();
    await page.getByLabel(/Reason for the kill/).fill('refund loop');
    await page.getByRole('button', { name: 'Kill session' }).click();
    // The kill asks for confirmation first; Cancel kills nothing.
    await expect
      .poll(() => page.locator('.confirm-text').textContent())
      .toBe('Kill this session? The gate refuses every further call of the agent. This cannot be undone.');
    await page.getByRole('button', { name: /^Cancel/ }).click();
    expect((await world.store.getSession(session.id))?.killedAt).toBeUndefined();
    await page.getByRole('button', { name: 'Kill session' }).click();
    await page.getByRole('button', { name: 'Yes, kill the session' }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toBe('Session killed: the gate refuses its next call.');
    expect(await page.locator('.kill-reason').textContent()).toBe('operator ana: refund loop');
    await shot(page, 'session-killed');

    const next = await lookup();
    expect(next.kind).not.toBe('ran');
    expect(next).toMatchObject({ reason: 'Novarch: an operator killed this session' });
    expect((await world.engine.isKilled(session.id))?.killReason).toBe('operator ana: refund loop');
    expect(errors).toEqual([]);
  });

  it('62 holds are a compact list (one line each, the selected one open), sorted, and one at a time on request', async () => {
    await start();
    const { page, errors } = await signedInPage('nvo_ana_secret');
    const holds: HoldRecord[] = [];
    for (let index = 0; index < 62; index++) {
      const { hold } = await world.refund({
        tenantId: 'acme',
        agentId: `bot-${index % 5}`,
        customer: `C${index}`,
        amount: 600 + index,
        unit: 'USD',
      });
      if (hold !== undefined) holds.push(hold);
    }
    expect(holds).toHaveLength(62);
    // As the agents' processes do while they wait (they check in every 2 s).
    for (const hold of holds)
      await world.store.checkInHoldWaiter(hold.id, { pid: process.pid, host: 'test' });
    await page.goto(`${served.url}/console?sort=amount`);
    await expect.poll(() => page.locator('#queue-count').textContent()).toBe('62');
    const cards = page.locator('#queue article.hold');
    expect(await cards.count()).toBe(62);
    // The largest amount first, with its unit; only the selected hold shows its decision form.
    expect(await cards.first().locator('.amount').textContent()).toBe('661 USD');
    expect(await page.locator('#queue form.decision:visible').count()).toBe(1);
    const lineHeights = await cards.evaluateAll((all) =>
      all.slice(1).map((card) => card.getBoundingClientRect().height),
    );
    expect(Math.max(...lineHeights)).toBeLessThan(80);
    const pageHeight = await page.locator('html').evaluate((root) => root.scrollHeight);
    expect(pageHeight).toBeLessThan(8_000);
    await shot(page, 'triage-compact');
    // j opens the next hold and closes the first; a click opens a one-line hold.
    await page.keyboard.press('j');
    await expect.poll(() => cards.nth(1).locator('form.decision').isVisible()).toBe(true);
    expect(await cards.first().locator('form.decision').isVisible()).toBe(false);
    await cards.nth(5).locator('h2').click();
    await expect.poll(() => cards.nth(5).locator('form.decision').isVisible()).toBe(true);
    expect(await page.locator('#queue form.decision:visible').count()).toBe(1);
    // One at a time: only the selected hold is on the page.
    await page.goto(`${served.url}/console?view=one`);
    await expect.poll(() => page.locator('#queue article.hold:visible').count()).toBe(1);
    expect(await page.locator('#queue article.hold').count()).toBe(62);
    await page.keyboard.press('j');
    await expect
      .poll(() => page.locator('#queue article.hold:visible').getAttribute('id'))
      .toBe(await cards.nth(1).getAttribute('id'));
    expect(errors).toEqual([]);
  });

  it('searches the audit and exports it as CSV and JSON', async () => {
    await start();
    const { page, errors } = await signedInPage('nvo_ana_secret');
    await world.refund({ tenantId: 'acme', agentId: 'bot-a', amount: 100, customer: '=cmd|calc' });
    await world.refund({ tenantId: 'acme', agentId: 'bot-b', amount: 200, customer: 'C-B' });
    await world.refund({ tenantId: 'globex', agentId: 'bot-a', amount: 300, customer: 'C-GLOBEX' });
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByLabel('Agent').fill('bot-a');
    await page.getByLabel('Verdict').selectOption('pass');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.locator('#audit-count').textContent()).toBe('1');
    expect(await page.locator('table.audit tbody').textContent()).toContain('=cmd|calc');
    expect(await page.locator('table.audit tbody').textContent()).not.toContain('C-GLOBEX');
    await shot(page, 'audit-search');

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'CSV' }).click(),
    ]);
    const csvText = readFileSync((await csv.path()) ?? '', 'utf8');
    const rows = csvText.trimEnd().split('\r\n');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(`"'=cmd|calc"`);
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'JSON' }).click(),
    ]);
    const entries = JSON.parse(readFileSync((await json.path()) ?? '', 'utf8')) as {
      session: { agentId: string };
    }[];
    expect(entries.map((entry) => entry.session.agentId)).toEqual(['bot-a']);
    expect(errors).toEqual([]);
  });
});
