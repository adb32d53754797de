import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSecret } from '../../../src/identity/identity-secrets.js';
import { ConsoleClient } from '../../console-support/console-client.js';
import { usePostgresServer } from '../../store/postgres-server.js';
import { createServerWorld, lookupEvidence, refundProposal, type ServerWorld } from './server-fixture.js';

// Quorum, approver groups and separation of duties on every decide path of the server (the API,
// which `novarch holds … --server` uses, and the console), on SQLite and on PostgreSQL.
// The rules: TEAM-2 holds a refund over 500 for group support-leads or finance; TEAM-3 holds one
// over 5000 for two distinct operators of group finance.

const APPROVAL_RULES = fileURLToPath(
  new URL('../../fixtures/rules/cs-ops-approvals.rules.yaml', import.meta.url),
);

const postgres = usePostgresServer();

describe.each(['SQLite', 'PostgreSQL'] as const)('approvals on %s', (backend) => {
  let world: ServerWorld;
  let agent = '';
  let agentKeyId = '';
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    world = await createServerWorld({
      rulesFile: APPROVAL_RULES,
      ...(backend === 'PostgreSQL' ? { storeUrl: await postgres.freshDatabase() } : {}),
    });
    agent = await world.agentKey('acme', 'cs-bot');
    agentKeyId = parseSecret(agent)?.id ?? '';
    const acme = [{ tenantId: 'acme' }];
    tokens.own = await world.operatorToken('own-team', acme, 'operator', {
      groups: ['support-leads', 'finance'],
      notForKeys: [agentKeyId],
    });
    tokens.lead = await world.operatorToken('lead', acme, 'operator', { groups: ['support-leads'] });
    tokens.nobody = await world.operatorToken('nobody', acme);
    tokens.fin1 = await world.operatorToken('fin1', acme, 'operator', { groups: ['finance'] });
    tokens.fin2 = await world.operatorToken('fin2', acme, 'operator', { groups: ['finance'] });
  }, 60_000);
  afterAll(() => world.close());

  /** A refund of `amount` after a lookup, in a new session: its hold's id. */
  async function hold(amount: number): Promise<string> {
    const opened = await world.call('POST', '/v1/sessions', agent, { teamId: 'cs-ops', agentId: 'cs-bot' });
    const session = ((await opened.json()) as { id: string }).id;
    await world.call('POST', `/v1/sessions/${session}/evidence`, agent, lookupEvidence('C1'));
    const decided = await world.call(
      'POST',
      `/v1/sessions/${session}/actions`,
      agent,
      refundProposal('C1', amount),
    );
    const body = (await decided.json()) as { hold?: { id: string } };
    expect(body.hold).toBeDefined();
    return body.hold?.id ?? '';
  }

  async function decide(token: string, holdId: string, decision: string, rationale?: string) {
    const response = await world.call('POST', `/v1/holds/${holdId}/decision`, token, {
      decision,
      ...(rationale === undefined ? {} : { rationale }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('a hold carries the policy of its rules: one of support-leads or finance for TEAM-2', async () => {
    const id = await hold(900);
    const shown = (await (await world.call('GET', `/v1/holds/${id}`, tokens.lead)).json()) as {
      hold: Record<string, unknown>;
    };
    expect(shown.hold.policy).toEqual({
      approvals: 1,
      approverGroups: [{ ruleId: 'TEAM-2', groups: ['support-leads', 'finance'] }],
    });
    const approved = await decide(tokens.lead ?? '', id, 'approve', 'ok');
    expect(approved.status).toBe(200);
    expect(approved.body.hold).toMatchObject({
      status: 'approved',
      decidedBy: 'lead',
      approvals: [{ operator: 'lead', rationale: 'ok' }],
    });
  });

  it('an operator in none of the rule’s groups may not decide, and is told which group is needed', async () => {
    const id = await hold(900);
    for (const decision of ['approve', 'deny']) {
      const refused = await decide(tokens.nobody ?? '', id, decision, 'no');
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toBe(
        `Operator nobody may not decide hold ${id}: rule TEAM-2 needs an approver in group support-leads, finance, and this token is in no group. An operator of that group must decide it (an admin adds one with novarch operators create --group). Nothing was changed.`,
      );
    }
    const stored = await world.stores.store.getHold(id);
    expect(stored?.status).toBe('pending');
    expect(stored?.approvals).toBeUndefined();
  });

  it('separation of duties: a token barred from the agent key decides nothing of its sessions', async () => {
    const id = await hold(900);
    for (const decision of ['approve', 'deny', 'skip']) {
      const refused = await decide(tokens.own ?? '', id, decision, 'mine');
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toBe(
        `Operator own-team may not decide hold ${id}: its session was opened with agent key ${agentKeyId}, whose holds this token may not decide (separation of duties: the token was created with --not-for-key ${agentKeyId}). Another operator must decide it. Nothing was changed.`,
      );
    }
    expect((await world.stores.store.getHold(id))?.status).toBe('pending');
  });

  it('quorum: two distinct finance operators; the first approval waits, the same one twice is refused', async () => {
    const id = await hold(9000);
    const lead = await decide(tokens.lead ?? '', id, 'approve');
    expect(lead.status).toBe(409);
    expect(lead.body.detail).toContain('rule TEAM-3 needs an approver in group finance');
    const first = await decide(tokens.fin1 ?? '', id, 'approve', 'checked the invoice');
    expect(first.status).toBe(200);
    expect(first.body.awaiting).toBe(1);
    expect(first.body.hold).toMatchObject({
      status: 'pending',
      policy: { approvals: 2 },
      approvals: [{ operator: 'fin1', rationale: 'checked the invoice' }],
    });
    const again = await decide(tokens.fin1 ?? '', id, 'approve');
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(
      `Operator fin1 already approved hold ${id} (1 of 2 approvals): each approval must come from a different operator. Nothing was changed.`,
    );
    const listed = (await (await world.call('GET', '/v1/holds?status=pending', tokens.fin2)).json()) as {
      hold: { id: string; approvals?: { operator: string }[] };
    }[];
    expect(listed.find((item) => item.hold.id === id)?.hold.approvals?.map((a) => a.operator)).toEqual([
      'fin1',
    ]);
    const second = await decide(tokens.fin2 ?? '', id, 'approve', 'agreed');
    expect(second.status).toBe(200);
    expect(second.body.awaiting).toBeUndefined();
    expect(second.body.hold).toMatchObject({
      status: 'approved',
      decidedBy: 'fin2',
      approvals: [{ operator: 'fin1' }, { operator: 'fin2' }],
    });
  });

  it('quorum: the first deny ends it, whatever approvals came before', async () => {
    const id = await hold(9000);
    expect((await decide(tokens.fin1 ?? '', id, 'approve')).status).toBe(200);
    const denied = await decide(tokens.fin2 ?? '', id, 'deny', 'not this one');
    expect(denied.status).toBe(200);
    expect(denied.body.hold).toMatchObject({
      status: 'denied',
      decidedBy: 'fin2',
      rationale: 'not this one',
    });
    const late = await decide(tokens.fin2 ?? '', id, 'approve');
    expect(late.status).toBe(409);
    expect(late.body.detail).toMatch(/^Hold hold_\S+ was already denied by fin2/);
  });

  it('two finance operators approving at once: both count, the hold is approved once', async () => {
    const id = await hold(9000);
    const [a, b] = await Promise.all([
      decide(tokens.fin1 ?? '', id, 'approve'),
      decide(tokens.fin2 ?? '', id, 'approve'),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const stored = await world.stores.store.getHold(id);
    expect(stored?.status).toBe('approved');
    expect(stored?.approvals?.map((approval) => approval.operator).sort()).toEqual(['fin1', 'fin2']);
  });

  it('an admin bars a token only from keys of its own tenants; another tenant’s key is unknown to it', async () => {
    const admin = await world.operatorToken('acme-admin', [{ tenantId: 'acme' }], 'admin');
    const globexKey = parseSecret(await world.agentKey('globex', 'their-bot'))?.id ?? '';
    const refused = await world.call('POST', '/v1/admin/operators', admin, {
      name: 'sneaky',
      role: 'operator',
      grants: ['acme'],
      notForKeys: [globexKey],
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toBe(
      `body.notForKeys: no agent key ${globexKey} in this admin's tenants (pass a key's id, nva_…, as \`novarch keys list\` shows it)`,
    );
    const created = await world.call('POST', '/v1/admin/operators', admin, {
      name: 'cs-lead',
      role: 'operator',
      grants: ['acme'],
      groups: ['finance'],
      notForKeys: [agentKeyId],
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { token: unknown }).token).toMatchObject({
      name: 'cs-lead',
      groups: ['finance'],
      notForKeys: [agentKeyId],
    });
  });

  it('the console enforces the same: barred and group-less operators are refused, a quorum shows its approvals', async () => {
    const id = await hold(9000);
    const own = new ConsoleClient(world.app);
    await own.signIn(tokens.own ?? '');
    await own.get(`/console/holds/${id}`);
    const barred = await own.post(`/console/holds/${id}/decision`, { decision: 'approve' });
    expect(barred.status).toBe(409);
    expect(await barred.text()).toContain(
      `its session was opened with agent key ${agentKeyId}, whose holds this token may not decide (separation of duties`,
    );
    const lead = new ConsoleClient(world.app);
    await lead.signIn(tokens.lead ?? '');
    await lead.get(`/console/holds/${id}`);
    const wrongGroup = await lead.post(`/console/holds/${id}/decision`, { decision: 'deny', rationale: 'x' });
    expect(wrongGroup.status).toBe(409);
    expect(await wrongGroup.text()).toContain('rule TEAM-3 needs an approver in group finance');
    const fin1 = new ConsoleClient(world.app);
    await fin1.signIn(tokens.fin1 ?? '');
    await fin1.get(`/console/holds/${id}`);
    const recorded = await fin1.post(`/console/holds/${id}/decision`, { decision: 'approve' });
    expect(recorded.status).toBe(303);
    const card = await (await fin1.get(`/console/holds/${id}`)).text();
    expect(card).toContain('data-approvals="1" data-required="2"');
    expect(card).toContain('Approvals 1 of 2');
    expect(card).toMatch(/<li>fin1 <time/);
    expect((await world.stores.store.getHold(id))?.status).toBe('pending');
  });
});
