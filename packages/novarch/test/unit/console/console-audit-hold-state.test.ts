import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleClient } from '../../console-support/console-client.js';
import { type ConsoleWorld, createConsoleWorld } from '../../console-support/console-world.js';

// Issue 24: an abandoned hold was "not shown" on Triage, `pending` in Audit and "running" on its
// session page. The audit names a pending hold's state as Triage does.

let world: ConsoleWorld;
afterEach(() => world?.close());

describe('console audit: the state of a pending hold', () => {
  it('says waiting for a hold an agent waits on, and expired past its deadline, in the audit and on its session page', async () => {
    world = await createConsoleWorld();
    await world.refund({ tenantId: 'acme', amount: 900 });
    const session = await world.engine.openSession({
      tenantId: 'acme',
      teamId: 'cs-ops',
      agentId: 'late-bot',
    });
    const action = await world.store.recordAction({
      sessionId: session.id,
      actionType: 'issue_refund',
      toolName: 'mcp__cs__issue_refund',
      input: { customer_id: 'C9', amount: 700 },
      context: { recordId: 'C9', summary: 'refund 700 to C9', amount: 700 },
    });
    await world.store.createHold(action.id, session.id, new Date(Date.now() - 1_000));
    const client = new ConsoleClient(world.app);
    await client.signIn('nvo_ana_secret');
    const page = await (await client.get('/console/audit?tenant=acme')).text();
    expect(page).toContain('<td>pending (waiting)</td>');
    expect(page).toContain('<td>pending (expired: the write will not run)</td>');
    // The session page says the same.
    const timeline = await (await client.get(`/console/sessions/${session.id}`)).text();
    expect(timeline).toContain(
      '<span class="hold-status">hold pending (expired: the write will not run)</span>',
    );
    // Its status is not "running": nothing waits on its hold, in the same words.
    const [held] = await world.store.listHolds({ sessionId: session.id });
    expect(timeline).toContain(
      `<dd id="session-status">stopped: its agent no longer waits on hold ${held?.id}, pending (expired: the write will not run)</dd>`,
    );
    // The sessions list says the same.
    const list = await (await client.get(`/console/sessions?q=late-bot`)).text();
    expect(list).toContain('<span class="badge status-stopped">stopped</span>');
    // A session whose agent waits on its hold says so.
    const [waiting] = (await world.store.listHolds({ status: 'pending' })).filter(
      (hold) => hold.sessionId !== session.id,
    );
    const waitingPage = await (await client.get(`/console/sessions/${waiting?.sessionId}`)).text();
    expect(waitingPage).toContain(`<dd id="session-status">running: waiting on hold ${waiting?.id}</dd>`);
  });
});
