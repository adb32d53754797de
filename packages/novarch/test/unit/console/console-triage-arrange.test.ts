import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleClient } from '../../console-support/console-client.js';
import { type ConsoleWorld, createConsoleWorld } from '../../console-support/console-world.js';

// Issue 24 (console): Triage of 62 holds was a 38,000-pixel page of full cards. It is a compact
// list (the selected hold open, the others one line) that can be filtered, sorted and grouped by
// tenant, team, agent, amount and deadline, or shown one hold at a time; amounts carry their unit.

let world: ConsoleWorld;
afterEach(() => world?.close());

async function signedIn(): Promise<ConsoleClient> {
  const client = new ConsoleClient(world.app);
  await client.signIn('nvo_ana_secret');
  return client;
}

/** The hold ids of a triage page, in the order shown. */
const shownHolds = (page: string) =>
  [...page.matchAll(/<article class="hold" id="hold-([^"]+)"/g)].map((m) => m[1]);

describe('console triage: a compact list', () => {
  it('filters, sorts and groups the holds by tenant, team, agent, amount and deadline', async () => {
    world = await createConsoleWorld();
    const small = await world.refund({ tenantId: 'acme', agentId: 'zed-bot', amount: 600 });
    const large = await world.refund({
      tenantId: 'acme',
      agentId: 'amy-bot',
      amount: 800,
    });
    const other = await world.refund({ tenantId: 'acme', agentId: 'max-bot', amount: 900 });
    const [a, b, c] = [small.hold?.id, large.hold?.id, other.hold?.id];
    const client = await signedIn();
    const byDeadline = await (await client.get('/console')).text();
    expect(shownHolds(byDeadline)).toEqual([a, b, c]);
    expect(byDeadline).toContain('<section id="queue" class="compact"');
    expect(shownHolds(await (await client.get('/console?sort=amount')).text())).toEqual([c, b, a]);
    expect(shownHolds(await (await client.get('/console?sort=agent')).text())).toEqual([b, c, a]);
    const filtered = await (await client.get('/console?q=MAX')).text();
    expect(shownHolds(filtered)).toEqual([c]);
    expect(filtered).toContain(
      '<span id="queue-count">1</span> pending hold waiting for a decision (of 3: the filter hides the rest).',
    );
    const grouped = await (await client.get('/console?group=agent&sort=amount')).text();
    expect(shownHolds(grouped)).toEqual([b, c, a]);
    expect(grouped).toContain('<h2 class="triage-group">agent amy-bot <span class="muted">(1)</span></h2>');
    expect(grouped).toContain('<h2 class="triage-group">agent zed-bot <span class="muted">(1)</span></h2>');
    expect(await (await client.get('/console?q=nobody')).text()).toContain('No hold matches the filter.');
  });

  it('shows one hold at a time on request', async () => {
    world = await createConsoleWorld();
    await world.refund({ tenantId: 'acme', amount: 600 });
    const client = await signedIn();
    const page = await (await client.get('/console?view=one')).text();
    expect(page).toContain('<section id="queue" class="compact one-at-a-time"');
    expect(page).toContain('<input type="checkbox" name="view" value="one" checked> One at a time');
  });

  it('refuses a sort, group, view or query field it does not know, saying what it takes', async () => {
    world = await createConsoleWorld();
    const client = await signedIn();
    const cases: [string, string][] = [
      ['sort=size', 'sort: expected one of deadline, amount, tenant, team, agent'],
      ['group=agentt', 'group: expected one of none, tenant, team, agent'],
      ['view=all', 'view: expected one (one hold at a time) or nothing'],
      ['order=amount', 'unknown query &quot;order&quot;: use q, sort, group or view'],
    ];
    for (const [query, message] of cases) {
      const response = await client.get(`/console?${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.text(), query).toContain(message);
    }
  });

  it('shows an amount with its unit, and the limit it crossed with the same unit', async () => {
    world = await createConsoleWorld();
    const { hold } = await world.refund({ tenantId: 'acme', amount: 600, unit: 'USD' });
    const client = await signedIn();
    const page = await (await client.get(`/console/holds/${hold?.id}`)).text();
    expect(page).toContain('<span class="amount">600 USD</span>');
    expect(page).toContain('<dt>amount</dt><dd class="agent-text">600 USD</dd>');
    expect(page).not.toContain('<dt>unit</dt>');
    expect(page).toContain('action.context.amount is 600 USD, not &lt;= 500 USD');
  });
});
