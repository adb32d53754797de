import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient } from '../../console-support/console-client.js';
import { createServerWorld, lookupEvidence, refundProposal, type ServerWorld } from './server-fixture.js';

// Approve with edit through the server: an operator approves a hold with an edited input (API and
// console); the agent's engine then proposes that input with `editOf`, and the server judges it
// again: a pass or a hold only by the rules that held the original runs it; a hold by another rule
// refuses it; an `editOf` that is not an approved edit of exactly that input is refused.
// Rules: TEAM-1 kills a refund without a lookup; TEAM-2 holds one over 500 (support-leads or
// finance); TEAM-3 holds one over 5000 (two of finance).

const APPROVAL_RULES = fileURLToPath(
  new URL('../../fixtures/rules/cs-ops-approvals.rules.yaml', import.meta.url),
);

let world: ServerWorld;
let agent = '';
let lead = '';

beforeAll(async () => {
  world = await createServerWorld({ rulesFile: APPROVAL_RULES });
  agent = await world.agentKey('acme', 'cs-bot');
  lead = await world.operatorToken('lead', [{ tenantId: 'acme' }], 'operator', { groups: ['support-leads'] });
});
afterAll(() => world.close());

/** A session with a lookup of C1 and a held refund of `amount`: its id and the hold's. */
async function held(amount: number): Promise<{ session: string; hold: string; actionId: string }> {
  const opened = await world.call('POST', '/v1/sessions', agent, { teamId: 'cs-ops', agentId: 'cs-bot' });
  const session = ((await opened.json()) as { id: string }).id;
  await world.call('POST', `/v1/sessions/${session}/evidence`, agent, lookupEvidence('C1'));
  const decided = (await (
    await world.call('POST', `/v1/sessions/${session}/actions`, agent, refundProposal('C1', amount))
  ).json()) as { action: { id: string }; hold: { id: string } };
  return { session, hold: decided.hold.id, actionId: decided.action.id };
}

async function approveWith(hold: string, input: unknown) {
  const response = await world.call('POST', `/v1/holds/${hold}/decision`, lead, {
    decision: 'approve',
    input,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The agent's engine proposing the edited input of `hold`. */
async function proposeEdit(session: string, hold: string, customer: string, amount: number) {
  const response = await world.call('POST', `/v1/sessions/${session}/actions`, agent, {
    ...refundProposal(customer, amount),
    editOf: hold,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('approve with edit through the server', () => {
  it('the edit is stored with who made it; the re-judged edit runs (a pass)', async () => {
    const { session, hold, actionId } = await held(900);
    const approved = await approveWith(hold, { customer_id: 'C1', amount: 400 });
    expect(approved.status).toBe(200);
    expect(approved.body.hold).toMatchObject({
      status: 'approved',
      decidedBy: 'lead',
      edit: { input: { customer_id: 'C1', amount: 400 }, by: 'lead' },
    });
    const edit = await proposeEdit(session, hold, 'C1', 400);
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ verdict: { kind: 'pass' }, release: { released: true } });
    const audit = await world.stores.store.audit({ sessionId: session });
    expect(
      audit.map((entry) => [
        entry.action.id === actionId,
        entry.action.input,
        entry.action.releasedAt !== undefined,
      ]),
    ).toEqual([
      [true, { customer_id: 'C1', amount: 900 }, false],
      [false, { customer_id: 'C1', amount: 400 }, true],
    ]);
  });

  it('an edit held only by the rule that held the original runs: the approval covers it', async () => {
    const { session, hold } = await held(900);
    await approveWith(hold, { customer_id: 'C1', amount: 800 });
    const edit = await proposeEdit(session, hold, 'C1', 800);
    expect(edit.body).toMatchObject({ verdict: { kind: 'hold' }, release: { released: true } });
    expect(edit.body.editRefusal).toBeUndefined();
  });

  it('an edit held by a rule the approval did not cover does not run', async () => {
    const { session, hold } = await held(900);
    await approveWith(hold, { customer_id: 'C1', amount: 9000 });
    const edit = await proposeEdit(session, hold, 'C1', 9000);
    expect(edit.body.release).toBeUndefined();
    expect(edit.body.editRefusal).toMatch(
      new RegExp(
        `^the edited input is held by rule TEAM-3, which the approval of hold ${hold} did not cover \\(.*\\); it did not run$`,
      ),
    );
  });

  it('an editOf that is not the approved edit of that input is refused, never judged as an edit', async () => {
    const { session, hold } = await held(900);
    const pending = await proposeEdit(session, hold, 'C1', 400);
    expect(JSON.stringify(pending.body)).toContain(`hold ${hold} is not an approved edit of this input`);
    await approveWith(hold, { customer_id: 'C1', amount: 400 });
    const other = await proposeEdit(session, hold, 'C1', 450);
    expect(JSON.stringify(other.body)).toContain(`hold ${hold} is not an approved edit of this input`);
  });

  it('an edited input is refused on a deny, and must be a JSON object', async () => {
    const { hold } = await held(900);
    const deny = await world.call('POST', `/v1/holds/${hold}/decision`, lead, {
      decision: 'deny',
      rationale: 'no',
      input: { amount: 1 },
    });
    expect(deny.status).toBe(400);
    expect(((await deny.json()) as { detail: string }).detail).toBe(
      `novarch holds deny takes no edited input: only an approval may change what runs (novarch holds approve ${hold} --input JSON).`,
    );
    const list = await approveWith(hold, [1, 2]);
    expect(list.status).toBe(400);
    expect((await world.stores.store.getHold(hold))?.status).toBe('pending');
  });

  it('the console approves with an edited input, shows it, and refuses one that is not JSON', async () => {
    const { hold } = await held(900);
    const client = new ConsoleClient(world.app);
    await client.signIn(lead);
    const card = await (await client.get(`/console/holds/${hold}`)).text();
    expect(card).toContain(`<textarea id="input-${hold}" name="input"`);
    const bad = await client.post(`/console/holds/${hold}/decision`, {
      decision: 'approve',
      input: '{amount: 1',
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('The edited input is not JSON (');
    const approved = await client.post(`/console/holds/${hold}/decision`, {
      decision: 'approve',
      input: '{"customer_id":"C1","amount":300}',
    });
    expect(approved.status).toBe(303);
    const decided = await (await client.get(`/console/holds/${hold}`)).text();
    expect(decided).toContain('Approved with an edited input by lead');
    expect((await world.stores.store.getHold(hold))?.edit).toEqual({
      input: { customer_id: 'C1', amount: 300 },
      by: 'lead',
    });
  });
});
