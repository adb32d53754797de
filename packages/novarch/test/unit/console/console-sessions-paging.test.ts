import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleClient } from '../../console-support/console-client.js';
import { type ConsoleWorld, createConsoleWorld } from '../../console-support/console-world.js';

// Issue 24: the sessions list was capped at 100, with no search.

let world: ConsoleWorld;
afterEach(() => world?.close());

const number = (page: string, id: string) =>
  Number(new RegExp(`<span id="${id}">(\\d+)</span>`).exec(page)?.[1]);

async function sessionsOf(count: number, agentId: string) {
  const ids: string[] = [];
  for (let index = 0; index < count; index++)
    ids.push((await world.engine.openSession({ tenantId: 'acme', teamId: 'cs-ops', agentId })).id);
  return ids;
}

describe('console sessions: paged and searchable', () => {
  it('pages through every session, most recent first, and finds them by agent or id', async () => {
    world = await createConsoleWorld({ deps: { sessionLimit: 4 } });
    const bots = await sessionsOf(6, 'refund-bot');
    const [other] = await sessionsOf(1, 'triage-bot');
    await world.engine.openSession({ tenantId: 'globex', teamId: 'cs-ops', agentId: 'refund-bot' });
    const client = new ConsoleClient(world.app);
    await client.signIn('nvo_ana_secret');

    const first = await (await client.get('/console/sessions')).text();
    expect([number(first, 'sessions-shown'), number(first, 'sessions-count')]).toEqual([4, 7]);
    expect(first).toContain('Page <span id="sessions-page">1</span> of 2');
    expect(first).toContain('<a href="/console/sessions?page=2" rel="next">Next</a>');
    const second = await (await client.get('/console/sessions?page=2')).text();
    expect(number(second, 'sessions-shown')).toBe(3);
    // Oldest last: the first session opened is on the last page.
    expect(second).toContain(`>${bots[0]}</a>`);
    expect(first).not.toContain(`>${bots[0]}</a>`);

    const found = await (await client.get('/console/sessions?q=TRIAGE')).text();
    expect([number(found, 'sessions-shown'), number(found, 'sessions-count')]).toEqual([1, 1]);
    expect(found).toContain(`>${other}</a>`);
    expect(found).toContain('value="TRIAGE"');
    const byId = await (await client.get(`/console/sessions?q=${bots[3]}`)).text();
    expect(number(byId, 'sessions-count')).toBe(1);
    const refunds = await (await client.get('/console/sessions?q=refund&page=2')).text();
    expect(refunds).toContain('<a href="/console/sessions?q=refund&amp;page=1" rel="prev">Previous</a>');
    expect(await (await client.get('/console/sessions?q=nobody')).text()).toContain('No session matches.');
  });

  it('refuses a page that is not a whole number, saying so', async () => {
    world = await createConsoleWorld();
    const client = new ConsoleClient(world.app);
    await client.signIn('nvo_ana_secret');
    const response = await client.get('/console/sessions?page=x');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('page: expected a whole number from 1');
    expect((await client.get('/console/sessions?sort=x')).status).toBe(400);
  });
});
