import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleClient, entriesOf } from '../../console-support/console-client.js';
import { type ConsoleWorld, createConsoleWorld } from '../../console-support/console-world.js';

let world: ConsoleWorld;
afterEach(() => world?.close());

const TOTAL = 1_269;

/** `TOTAL` refund writes of one acme session, stored directly (no judge: the audit shows them all). */
async function manyWrites(): Promise<void> {
  const session = await world.engine.openSession({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'bulk-bot' });
  for (let index = 0; index < TOTAL; index++) {
    const recordId = `R${String(index).padStart(4, '0')}`;
    await world.store.recordAction({
      sessionId: session.id,
      actionType: 'issue_refund',
      toolName: 'mcp__cs__issue_refund',
      input: { customer_id: recordId, amount: 10 },
      context: { recordId, summary: `refund 10 to ${recordId}`, amount: 10 },
    });
  }
}

const number = (page: string, id: string) =>
  Number(new RegExp(`<span id="${id}">(\\d+)</span>`).exec(page)?.[1]);

describe('console audit beyond 500 entries', () => {
  it('exports every matching entry (CSV and JSON) while the page says "N of M" and pages', async () => {
    world = await createConsoleWorld();
    await manyWrites();
    const client = new ConsoleClient(world.app);
    await client.signIn('nvo_ana_secret');

    const json = await entriesOf(await client.get('/console/audit/export.json?tenant=acme'));
    expect(json).toHaveLength(TOTAL);
    expect(new Set(json.map((entry) => entry.action.context.recordId)).size).toBe(TOTAL);
    const csv = await (await client.get('/console/audit/export.csv?tenant=acme')).text();
    expect(csv.trimEnd().split('\r\n')).toHaveLength(TOTAL + 1);
    expect(csv).toContain('"R0000"');
    expect(csv).toContain('"R1268"');
    // An explicit limit still means "the most recent N".
    expect(await entriesOf(await client.get('/console/audit/export.json?tenant=acme&limit=7'))).toHaveLength(
      7,
    );

    const first = await (await client.get('/console/audit?tenant=acme')).text();
    expect(number(first, 'audit-shown')).toBe(500);
    expect(number(first, 'audit-count')).toBe(TOTAL);
    expect(first).toContain('(1–500), newest first. Export all 1269 of this search');
    // Newest first: page 1 opens on the latest write.
    expect(first).toContain('R1268');
    expect(first).not.toContain('>R0000 ');
    expect(first).toContain('Page <span id="audit-page">1</span> of 3');
    expect(first).toContain('<a href="/console/audit?tenant=acme&amp;page=2" rel="next">Next</a>');
    expect(first).toContain('<a href="/console/audit/export.csv?tenant=acme" download>CSV</a>');
    const last = await (await client.get('/console/audit?tenant=acme&page=3')).text();
    expect(number(last, 'audit-shown')).toBe(TOTAL - 1000);
    expect(last).toContain('(1001–1269)');
    expect(last).toContain('R0000');
    expect(last).not.toContain('>R0269 ');
    expect(last).toContain('<a href="/console/audit?tenant=acme&amp;page=2" rel="prev">Previous</a>');
    // The export links of a later page still export the whole search, not the page.
    expect(last).toContain('<a href="/console/audit/export.json?tenant=acme" download>JSON</a>');
  });

  it('opens on the most recent entries, before any search', async () => {
    world = await createConsoleWorld();
    await manyWrites();
    const client = new ConsoleClient(world.app);
    await client.signIn('nvo_ana_secret');
    const opened = await (await client.get('/console/audit')).text();
    expect(number(opened, 'audit-count')).toBe(TOTAL);
    expect(opened).toContain('(1–500), newest first.');
    expect(opened.indexOf('R1268')).toBeLessThan(opened.indexOf('R1267'));
  });

  it('refuses a page that is not a whole number from 1, saying so', async () => {
    world = await createConsoleWorld();
    const client = new ConsoleClient(world.app);
    await client.signIn('nvo_ana_secret');
    const response = await client.get('/console/audit?page=0');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('page: expected a whole number from 1');
  });
});
