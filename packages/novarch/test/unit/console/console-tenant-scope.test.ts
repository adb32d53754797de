import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleClient, entriesOf, jsonOf } from '../../console-support/console-client.js';
import { type ConsoleWorld, createConsoleWorld } from '../../console-support/console-world.js';

let world: ConsoleWorld;
afterEach(() => world?.close());

const json = { Accept: 'application/json' };

async function signedIn(token: string): Promise<ConsoleClient> {
  const client = new ConsoleClient(world.app);
  await client.signIn(token);
  return client;
}

describe('console tenant scoping', () => {
  it("an operator never sees another tenant's holds, sessions or audit; their ids are 404", async () => {
    world = await createConsoleWorld();
    const acme = await world.refund({
      tenantId: 'acme',
      agentId: 'acme-bot',
      amount: 900,
      customer: 'ACME-C',
    });
    const globex = await world.refund({
      tenantId: 'globex',
      agentId: 'globex-bot',
      amount: 900,
      customer: 'GLOBEX-C',
    });
    const eve = await signedIn('nvo_eve_secret');

    const queue = await (await eve.get('/console')).text();
    expect(queue).toContain(globex.hold?.id);
    expect(queue).not.toContain(acme.hold?.id);
    expect(queue).not.toContain('ACME-C');

    const sessions = await (await eve.get('/console/sessions')).text();
    expect(sessions).toContain(globex.session.id);
    expect(sessions).not.toContain(acme.session.id);

    const audit = await (await eve.get('/console/audit?tenant=')).text();
    expect(audit).toContain('GLOBEX-C');
    expect(audit).not.toContain('ACME-C');
    // Asking for the other tenant by name finds nothing.
    expect(await (await eve.get('/console/audit?tenant=acme')).text()).toContain(
      '<span id="audit-count">0</span>',
    );
    const exported = await entriesOf(await eve.get('/console/audit/export.json'));
    expect(exported.map((entry: { session: { tenantId: string } }) => entry.session.tenantId)).toEqual([
      'globex',
    ]);
    expect(await (await eve.get('/console/audit/export.csv?tenant=acme')).text()).not.toContain('ACME-C');

    const holdId = acme.hold?.id ?? '';
    const sessionId = acme.session.id;
    const hold = await eve.get(`/console/holds/${holdId}`, json);
    expect(hold.status).toBe(404);
    expect((await jsonOf(hold)).detail).toBe(`No hold ${holdId}.`);
    const unknown = await eve.get('/console/holds/hold_nope', json);
    expect(unknown.status).toBe(404);
    expect((await jsonOf(unknown)).detail).toBe('No hold hold_nope.');
    const session = await eve.get(`/console/sessions/${sessionId}`, json);
    expect(session.status).toBe(404);
    expect((await jsonOf(session)).detail).toBe(`No session ${sessionId}.`);

    const decide = await eve.post(
      `/console/holds/${holdId}/decision`,
      { decision: 'approve' },
      { headers: json },
    );
    expect(decide.status).toBe(404);
    const kill = await eve.post(
      `/console/sessions/${sessionId}/kill`,
      { reason: 'mine now' },
      { headers: json },
    );
    expect(kill.status).toBe(404);
    expect((await jsonOf(kill)).detail).toBe(`No session ${sessionId}.`);
    expect((await world.store.getHold(holdId))?.status).toBe('pending');
    expect((await world.store.getSession(sessionId))?.killedAt).toBeUndefined();
  });

  it('a team grant covers that team only', async () => {
    world = await createConsoleWorld();
    const support = await world.refund({
      tenantId: 'acme',
      teamId: 'cs-ops',
      amount: 900,
      customer: 'SUPPORT-C',
    });
    const billing = await world.refund({
      tenantId: 'acme',
      teamId: 'billing',
      amount: 900,
      customer: 'BILLING-C',
    });
    const tess = await signedIn('nvo_tess_secret');
    const queue = await (await tess.get('/console')).text();
    // The billing team has no rules file: its write is killed by the judge, not held.
    expect(billing.hold).toBeUndefined();
    expect(queue).not.toContain(support.hold?.id);
    expect((await tess.get(`/console/sessions/${support.session.id}`, json)).status).toBe(404);
    expect((await tess.get(`/console/sessions/${billing.session.id}`, json)).status).toBe(200);
    const audit = await (await tess.get('/console/audit?agent=')).text();
    expect(audit).toContain('BILLING-C');
    expect(audit).not.toContain('SUPPORT-C');
  });

  it('the live event stream carries only the operator’s own holds', async () => {
    world = await createConsoleWorld();
    const eve = await signedIn('nvo_eve_secret');
    const acme = await world.refund({ tenantId: 'acme', amount: 900 });
    const globex = await world.refund({ tenantId: 'globex', amount: 900 });
    const controller = new AbortController();
    const response = await world.app.request('/console/events', {
      headers: { Cookie: eve.cookie ?? '' },
      signal: controller.signal,
    });
    expect(response.headers.get('Content-Type')).toBe('text/event-stream');
    const reader = (response.body ?? new ReadableStream()).getReader();
    const { value } = await reader.read();
    const text = new TextDecoder().decode(value);
    controller.abort();
    await reader.cancel();
    expect(text).toContain('event: hold-added');
    expect(text).toContain(globex.hold?.id);
    expect(text).not.toContain(acme.hold?.id);
  });
});
