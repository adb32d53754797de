import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, startFakeAnthropic } from '@holodeck/testkit';
import { launchChromium } from '@holodeck/testkit/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentOverHttp } from './support/agent-over-http.js';
import { lookup, RULES_FILE, refund } from './support/gate-fixture.js';
import { type NovarchServerProcess, startServerProcess } from './support/novarch-server-process.js';
import { createSecret, runNovarch } from './support/run-novarch-cli.js';
import { type RemoteAgentProcess, spawnRemoteAgent } from './support/spawn-remote-agent.js';

// The "done when": one `novarch serve` process governs agents in two other processes with
// their own homes (two machines, as far as they can tell), through the real SDK and CLI; an
// operator signed in to the console in Chromium approves a held write while its agent waits.

const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/console/', import.meta.url));

let fakes: Awaited<ReturnType<typeof startFakeAnthropic>>[] = [];
let server: NovarchServerProcess;
let browser: Browser;
const agents: RemoteAgentProcess[] = [];
const keys: string[] = [];
let operatorToken = '';

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  fakes = [await startFakeAnthropic(), await startFakeAnthropic()];
  const directory = mkdtempSync(path.join(tmpdir(), 'novarch-server-console-'));
  const config = path.join(directory, 'novarch.yaml');
  writeFileSync(
    config,
    `hold_window_seconds: 60\nrules: [${JSON.stringify(RULES_FILE)}]\nserver:\n  store_url: sqlite:./server.db\n  tenants:\n    acme: {}\n`,
  );
  const store = ['--config', config];
  for (const name of ['cs-bot-east', 'cs-bot-west']) {
    keys.push(await createSecret(['keys', 'create', ...store, '--tenant', 'acme', '--name', name]));
  }
  operatorToken = await createSecret(['operators', 'create', ...store, '--name', 'ana', '--grant', 'acme']);
  server = await startServerProcess(store);
  browser = await launchChromium();
});
afterAll(async () => {
  for (const agent of agents) if (agent.process.exitCode === null) agent.process.kill('SIGKILL');
  await browser?.close();
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  for (const fake of fakes) await fake.close();
});

const operator = (args: string[]) =>
  runNovarch([...args, '--server', server.url], { NOVARCH_TOKEN: operatorToken });

describe('one novarch serve, two agent processes, an operator in the console', () => {
  it('a write held for the first agent is approved in Chromium while it waits; the second agent is passed meanwhile', async () => {
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/console`);
    await expect.poll(() => page.title()).toBe('Sign in · Novarch console');
    // An agent key never signs in.
    await page.getByLabel('Operator token').fill(keys[0] ?? '');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('That is an agent key (nva_…): agents cannot sign in. Sign in with an operator token (nvo_…).');
    await page.getByLabel('Operator token').fill(operatorToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/console`);
    await expect.poll(() => page.locator('#queue-count').textContent()).toBe('0');

    const [eastModel, westModel] = fakes;
    if (eastModel === undefined || westModel === undefined) throw new Error('two fake models');
    eastModel.script(lookup('C3', 'l1'), refund('C3', 900, 'r1'), reply('done'));
    westModel.script(lookup('C7', 'l1'), refund('C7', 120, 'r1'), reply('done'));
    const east = spawnRemoteAgent(server.url, keys[0] ?? '', eastModel.url);
    agents.push(east);
    const eastSession = String((await east.next('opened')).sessionId);

    // The hold appears in the open page without a reload.
    const card = page.locator('article.hold').first();
    await card.waitFor({ timeout: 60_000 });
    await expect.poll(() => page.locator('#queue-count').textContent()).toBe('1');
    expect(await card.locator('.scope').textContent()).toContain(`session ${eastSession}`);
    expect(await card.locator('.rationale blockquote').textContent()).toBe('customer asked');
    await page.screenshot({ path: `${ARTIFACTS}server-hold-live.png`, fullPage: true });

    // Meanwhile a second agent, another process with another home and key, is judged and passed.
    const west = spawnRemoteAgent(server.url, keys[1] ?? '', westModel.url);
    agents.push(west);
    const westDone = await west.next('done');
    expect(westDone).toMatchObject({ killed: false, refunds: [{ customer_id: 'C7', amount: 120 }] });
    expect(westDone.home).toBe(west.home);
    expect((await west.exited).code).toBe(0);
    // The first agent still waits: its refund has not run.
    expect(east.process.exitCode).toBe(null);

    await card.locator('button.approve').click();
    await card.locator('.confirm-yes').click();
    await expect.poll(() => card.locator('.outcome').textContent()).toMatch(/^Approved by ana at .+\.$/);
    const eastDone = await east.next('done');
    expect(eastDone).toMatchObject({ killed: false, refunds: [{ customer_id: 'C3', amount: 900 }] });
    expect(eastDone.home).toBe(east.home);
    expect(eastDone.home).not.toBe(westDone.home);
    expect((await east.exited).code).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}server-hold-approved.png`, fullPage: true });
    expect(errors).toEqual([]);
    for (const fake of fakes) fake.assertComplete();

    // The server stored both sessions, each judged by it; the approval is stored under the token's name.
    const audit = await operator(['audit', '--json']);
    expect(audit.code, audit.stderr).toBe(0);
    const entries: {
      session: { id: string };
      action: { releasedAt?: string };
      hold?: { status: string; decidedBy?: string };
    }[] = JSON.parse(audit.stdout);
    expect(new Set(entries.map((entry) => entry.session.id)).size).toBe(2);
    expect(entries.find((entry) => entry.session.id === eastSession)).toMatchObject({
      action: { releasedAt: expect.any(String) },
      hold: { status: 'approved', decidedBy: 'ana' },
    });
    expect(entries.every((entry) => entry.action.releasedAt !== undefined)).toBe(true);
  });

  it('an agent key cannot decide: a decision with it is refused (403) and the hold stays pending', async () => {
    const agent = agentOverHttp(server.url, keys[0] ?? '');
    const sessionId = await agent.openSession();
    await agent.lookup(sessionId, 'C9');
    const held = await agent.refund(sessionId, 'C9', 900);
    expect(held).toMatchObject({
      status: 200,
      body: { verdict: { kind: 'hold' }, hold: { status: 'pending' } },
    });
    const holdId = z.object({ hold: z.object({ id: z.string() }) }).parse(held.body).hold.id;
    const decided = await agent.call('POST', `/v1/holds/${holdId}/decision`, { decision: 'approve' });
    expect(decided).toEqual({
      status: 403,
      body: {
        type: 'about:blank',
        title: 'Forbidden',
        status: 403,
        detail: 'an agent key may not decide holds or kill sessions: an operator token (nvo_…) is needed',
      },
    });
    const killed = await agent.call('POST', `/v1/sessions/${sessionId}/kill`, { reason: 'mine' });
    expect(killed.status).toBe(403);
    const shown = await operator(['holds', 'show', holdId, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ hold: { id: holdId, status: 'pending' } });
  });
});
