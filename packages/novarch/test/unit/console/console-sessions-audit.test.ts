import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_CLIENT_SCRIPT } from '../../../src/console/assets/console-client-script.js';
import { auditToCsv, csvCell } from '../../../src/console/export-audit.js';
import { ConsoleClient, entriesOf, jsonOf } from '../../console-support/console-client.js';
import { type ConsoleWorld, createConsoleWorld, HOSTILE } from '../../console-support/console-world.js';

let world: ConsoleWorld;
afterEach(() => world?.close());

const json = { Accept: 'application/json' };

async function signedIn(token = 'nvo_ana_secret'): Promise<ConsoleClient> {
  const client = new ConsoleClient(world.app);
  await client.signIn(token);
  return client;
}

describe('console sessions', () => {
  it('lists sessions with their status and shows a timeline of reads, writes and verdicts', async () => {
    world = await createConsoleWorld();
    const { session } = await world.refund({ tenantId: 'acme', amount: 100, reasoning: HOSTILE });
    const client = await signedIn();
    const list = await (await client.get('/console/sessions')).text();
    expect(list).toContain(`<a href="/console/sessions/${session.id}">${session.id}</a>`);
    expect(list).toContain('<span class="badge status-live">live</span>');
    const page = await (await client.get(`/console/sessions/${session.id}`)).text();
    expect(page).toContain('<title>Session ');
    expect(page).toMatch(/<span class="kind">read<\/span> <code>mcp__cs__lookup_customer<\/code>/);
    expect(page).toMatch(/<span class="kind">write<\/span> <code>mcp__cs__issue_refund<\/code>/);
    expect(page).toContain(
      '<span class="verdict verdict-pass">pass</span> <span class="muted">(judge: TEAM-1, TEAM-2)</span>',
    );
    expect(page).not.toContain('<img src=x');
  });

  it('kills a session with a reason stored under the operator, and the engine then reports it killed', async () => {
    world = await createConsoleWorld();
    const { session } = await world.refund({ tenantId: 'acme', amount: 100 });
    const client = await signedIn();
    await client.get(`/console/sessions/${session.id}`);
    const response = await client.post(`/console/sessions/${session.id}/kill`, {
      reason: 'looping on refunds',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe(`/console/sessions/${session.id}?killed=1`);
    expect((await world.engine.isKilled(session.id))?.killReason).toBe('operator ana: looping on refunds');
    expect((await world.store.getSession(session.id))?.kill?.source).toBe('operator');
    const page = await (await client.get(`/console/sessions/${session.id}?killed=1`)).text();
    expect(page).toContain('Session killed: the gate refuses its next call.');
    expect(page).not.toContain('<form class="kill"');
    const again = await client.post(
      `/console/sessions/${session.id}/kill`,
      { reason: 'again' },
      { headers: json },
    );
    expect(again.status).toBe(409);
    expect((await jsonOf(again)).message).toMatch(
      new RegExp(
        `^Session ${session.id} was already killed at .+: operator ana: looping on refunds\\. Nothing was changed\\.$`,
      ),
    );
  });

  it('refuses a kill without a reason with its message', async () => {
    world = await createConsoleWorld();
    const { session } = await world.refund({ tenantId: 'acme', amount: 100 });
    const client = await signedIn();
    await client.get(`/console/sessions/${session.id}`);
    const response = await client.post(`/console/sessions/${session.id}/kill`, { reason: ' ' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(
      '<p class="message error" role="alert">A kill needs a reason: it is stored and shown to the agent.</p>',
    );
    expect((await world.store.getSession(session.id))?.killedAt).toBeUndefined();
  });
});

describe('console audit', () => {
  it('searches by team, agent, session, verdict, rule and date', async () => {
    world = await createConsoleWorld();
    const passed = await world.refund({
      tenantId: 'acme',
      agentId: 'bot-a',
      amount: 100,
      customer: 'PASS-C',
    });
    const held = await world.refund({ tenantId: 'acme', agentId: 'bot-b', amount: 900, customer: 'HOLD-C' });
    const client = await signedIn();
    const count = async (query: string) =>
      Number(
        /<span id="audit-count">(\d+)<\/span>/.exec(
          await (await client.get(`/console/audit?${query}`)).text(),
        )?.[1],
      );
    expect(await count('tenant=acme')).toBe(2);
    expect(await count('agent=bot-a')).toBe(1);
    expect(await count(`session=${held.session.id}`)).toBe(1);
    expect(await count('verdict=hold')).toBe(1);
    expect(await count('verdict=pass')).toBe(1);
    expect(await count('rule=TEAM-2')).toBe(2);
    expect(await count('team=cs-ops')).toBe(2);
    expect(await count('team=billing')).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(await count(`from=${today}&to=${today}`)).toBe(2);
    expect(await count('to=2000-01-01')).toBe(0);
    expect(passed.verdict.kind).toBe('pass');
  });

  it.each([
    ['verdict=maybe', 'verdict: expected pass, kill or hold'],
    ['from=yesterday', 'from: expected a date like 2026-05-01'],
    ['to=2026-13-45', 'to: expected a date like 2026-05-01'],
    ['limit=0', 'limit: expected a whole number from 1 to 10000'],
    ['colour=red', 'unknown search field: colour'],
  ])('refuses the search %s with its message', async (query, message) => {
    world = await createConsoleWorld();
    const client = await signedIn();
    const page = await client.get(`/console/audit?${query}`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain(`<p class="message error" role="alert">${message}</p>`);
    const exported = await client.get(`/console/audit/export.csv?${query}`, json);
    expect(exported.status).toBe(400);
    expect((await jsonOf(exported)).detail).toBe(message);
  });

  it('exports CSV (formula cells neutralised) and JSON of the same search', async () => {
    world = await createConsoleWorld();
    await world.refund({
      tenantId: 'acme',
      amount: 900,
      customer: '=HYPERLINK("http://evil")',
      reasoning: '+1 "quoted"',
    });
    const client = await signedIn();
    const csv = await client.get('/console/audit/export.csv?verdict=hold');
    expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('Content-Disposition')).toMatch(/^attachment; filename="novarch-audit-.+\.csv"$/);
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^"time","tenant","team","agent","session",/);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[1]).toContain(`"'+1 ""quoted"""`);
    const exported = await client.get('/console/audit/export.json?verdict=hold');
    expect(exported.headers.get('Content-Disposition')).toMatch(/\.json"$/);
    const entries = await entriesOf(exported);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.action.context.recordId).toBe('=HYPERLINK("http://evil")');
  });

  it.each([
    ['=1+1', `"'=1+1"`],
    ['+cmd', `"'+cmd"`],
    ['-2', `"'-2"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tx', `"'\tx"`],
    ['plain, "text"', '"plain, ""text"""'],
  ])('csvCell(%j) is %s', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('writes a header row even for no entries', () => {
    expect(auditToCsv([]).split('\r\n')).toHaveLength(2);
  });
});

describe('console webhooks and assets', () => {
  it('lists failed webhook deliveries of the operator’s tenants only', async () => {
    world = await createConsoleWorld({
      deps: {
        listWebhookDeliveries: async (tenantId) => [
          {
            id: `d-${tenantId}-1`,
            tenantId,
            url: `https://hooks.${tenantId}.example/<b>`,
            status: 'failed',
            attempts: 5,
            lastError: 'HTTP 500',
          },
          { id: `d-${tenantId}-2`, tenantId, url: 'https://ok.example', status: 'delivered', attempts: 1 },
        ],
      },
    });
    const client = await signedIn();
    const page = await (await client.get('/console/webhooks')).text();
    expect(page).toContain('<code>https://hooks.acme.example/&lt;b&gt;</code>');
    expect(page).toContain('HTTP 500');
    expect(page).not.toContain('ok.example');
    expect(page).not.toContain('globex');
  });

  it('says when the server sends no webhooks', async () => {
    world = await createConsoleWorld();
    const client = await signedIn();
    expect(await (await client.get('/console/webhooks')).text()).toContain(
      'This server sends no webhooks, so there are no deliveries to show.',
    );
  });

  it('serves the client script (valid JavaScript) and the stylesheet without a session', async () => {
    world = await createConsoleWorld();
    const script = await world.app.request('/console/assets/console.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    expect(() => new Function(CONSOLE_CLIENT_SCRIPT)).not.toThrow();
    const styles = await world.app.request('/console/assets/console.css');
    expect(styles.headers.get('Content-Type')).toBe('text/css; charset=utf-8');
  });

  it('every page has a title, a banner, a navigation and a main landmark', async () => {
    world = await createConsoleWorld();
    const client = await signedIn();
    for (const [path, title] of [
      ['/console', 'Triage'],
      ['/console/sessions', 'Sessions'],
      ['/console/audit', 'Audit'],
      ['/console/webhooks', 'Webhook deliveries'],
    ] as const) {
      const page = await (await client.get(path)).text();
      expect(page).toContain(`<title>${title} · Novarch console</title>`);
      expect(page).toContain('<header class="banner">');
      expect(page).toContain('<nav aria-label="Console">');
      expect(page).toContain('<main id="main" tabindex="-1">');
      expect(page).toContain(`<h1>${title}</h1>`);
    }
  });
});
