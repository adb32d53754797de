import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerWorld, lookupEvidence, refundProposal, type ServerWorld } from './server-fixture.js';

// A session is bound to the agent key that opened it and to a secret answered once: another key
// of the same tenant cannot see or write on it, and its own key cannot write on it without the
// secret (what an agent's shell holding only NOVARCH_API_KEY can do).

let world: ServerWorld;
let mine = '';
let other = '';
let session = '';
let hold = '';
const SECRET_ONLY =
  /^session ses_.+ is written only with its own secret \(the novarch-session-secret header its remote engine sends, from the answer that opened it\): nothing was stored$/;

beforeAll(async () => {
  world = await createServerWorld();
  mine = await world.agentKey('acme', 'cs-bot');
  other = await world.agentKey('acme', 'other-bot');
  const opened = await world.call('POST', '/v1/sessions', mine, { teamId: 'cs-ops', agentId: 'cs-bot' });
  expect(opened.status).toBe(201);
  const body = (await opened.json()) as { id: string; sessionSecret: string };
  session = body.id;
  expect(body.sessionSecret).toMatch(/^nvs_[A-Za-z0-9_-]{43}$/);
  await world.call('POST', `/v1/sessions/${session}/evidence`, mine, lookupEvidence('C1'));
  const held = await world.call('POST', `/v1/sessions/${session}/actions`, mine, refundProposal('C1', 900));
  hold = ((await held.json()) as { hold: { id: string } }).hold.id;
});
afterAll(() => world.close());

/** Every write on the session, as `[name, method, path, body]`. */
function writes(): [string, string, string, unknown][] {
  return [
    ['evidence', 'POST', `/v1/sessions/${session}/evidence`, lookupEvidence('C9')],
    ['action', 'POST', `/v1/sessions/${session}/actions`, refundProposal('C1', 10)],
    [
      'refusal',
      'POST',
      `/v1/sessions/${session}/refusals`,
      {
        source: 'gate',
        call: { actionType: 'x', toolName: 'x', context: { recordId: 'r', summary: 's' } },
        citations: { ruleIds: [], evidenceIds: [], rationale: 'x' },
      },
    ],
    ['latch', 'POST', `/v1/sessions/${session}/latch`, { reason: 'x', source: 'gate' }],
    ['hold wait', 'POST', `/v1/holds/${hold}/wait`, { timeoutMs: 0 }],
    ['hold abort', 'POST', `/v1/holds/${hold}/abort`, undefined],
  ];
}

describe('a session bound to its key and secret', () => {
  const names = ['evidence', 'action', 'refusal', 'latch', 'hold wait', 'hold abort'];
  const write = (name: string) => {
    const found = writes().find(([candidate]) => candidate === name);
    if (found === undefined) throw new Error(`no write ${name}`);
    return found;
  };

  it.each(names)('%s without the secret is 403 and stores nothing', async (name) => {
    const [, method, path, body] = write(name);
    const response = await world.call(method, path, mine, body, { 'novarch-session-secret': '' });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { detail: string }).detail).toMatch(SECRET_ONLY);
    const wrong = await world.call(method, path, mine, body, {
      'novarch-session-secret': `nvs_${'x'.repeat(43)}`,
    });
    expect(wrong.status).toBe(403);
  });

  it.each(names)('%s with another key of the tenant is 404, secret or not', async (name) => {
    const [, method, path, body] = write(name);
    const response = await world.call(method, path, other, body);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { detail: string }).detail).toMatch(
      /^no (session|hold) ".+" is visible/,
    );
  });

  it('another key of the tenant does not see it in reads or lists', async () => {
    expect((await world.call('GET', `/v1/sessions/${session}`, other)).status).toBe(404);
    expect((await world.call('GET', `/v1/sessions/${session}/evidence`, other)).status).toBe(404);
    expect((await world.call('GET', `/v1/holds/${hold}`, other)).status).toBe(404);
    expect(await (await world.call('GET', '/v1/sessions', other)).json()).toEqual([]);
    expect(await (await world.call('GET', `/v1/audit?sessionId=${session}`, other)).json()).toEqual([]);
  });

  it('nothing of those attempts was stored; its own key with the secret still works', async () => {
    const evidence = (await (
      await world.call('GET', `/v1/sessions/${session}/evidence`, mine)
    ).json()) as unknown[];
    expect(evidence).toHaveLength(1);
    const read = (await (await world.call('GET', `/v1/sessions/${session}`, mine)).json()) as {
      killedAt?: string;
    };
    expect(read.killedAt).toBeUndefined();
    const audit = (await (
      await world.call('GET', `/v1/audit?sessionId=${session}`, mine)
    ).json()) as unknown[];
    expect(audit).toHaveLength(1);
    const wait = await world.call('POST', `/v1/holds/${hold}/wait`, mine, { timeoutMs: 0 });
    expect(wait.status).toBe(200);
    expect(
      (await world.call('POST', `/v1/sessions/${session}/evidence`, mine, lookupEvidence('C2'))).status,
    ).toBe(201);
  });

  it('an operator reads and decides it without any secret', async () => {
    const ana = await world.operatorToken('ana', [{ tenantId: 'acme' }]);
    expect((await world.call('GET', `/v1/holds/${hold}`, ana)).status).toBe(200);
  });
});

describe('keys bound to an agent and teams', () => {
  it('a bound key opens sessions of its agent and teams only (403 naming the binding)', async () => {
    const created = await world.stores.identities.createAgentKey({
      tenantId: 'acme',
      name: 'bound',
      agentId: 'cs-bot',
      teamIds: ['cs-ops'],
    });
    const agent = await world.call('POST', '/v1/sessions', created.secret, {
      teamId: 'cs-ops',
      agentId: 'billing-bot',
    });
    expect(agent.status).toBe(403);
    expect(((await agent.json()) as { detail: string }).detail).toBe(
      'this agent key is bound to agent "cs-bot"; it may not open sessions of agent "billing-bot" (create a key for that agent: novarch keys create --agent billing-bot)',
    );
    const team = await world.call('POST', '/v1/sessions', created.secret, {
      teamId: 'billing',
      agentId: 'cs-bot',
    });
    expect(team.status).toBe(403);
    expect(((await team.json()) as { detail: string }).detail).toBe(
      'this agent key is bound to team "cs-ops"; it may not open sessions of team "billing"',
    );
    expect(
      (await world.call('POST', '/v1/sessions', created.secret, { teamId: 'cs-ops', agentId: 'cs-bot' }))
        .status,
    ).toBe(201);
  });

  it('team ids are validated: length and characters (400 naming the field)', async () => {
    for (const teamId of ['globex/cs-ops', 'x'.repeat(65), 'a b', '']) {
      const response = await world.call('POST', '/v1/sessions', mine, { teamId, agentId: 'cs-bot' });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        issues: [
          {
            path: 'body.teamId',
            message: 'a team id is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
          },
        ],
      });
    }
    const long = await world.call('POST', '/v1/sessions', mine, {
      teamId: 'cs-ops',
      agentId: 'x'.repeat(100_000),
    });
    expect(long.status).toBe(400);
  });

  it('admins create bound keys over the API', async () => {
    const admin = await world.operatorToken('gia', [{ tenantId: 'acme' }], 'admin');
    const response = await world.call('POST', '/v1/admin/keys', admin, {
      tenantId: 'acme',
      name: 'api-bound',
      agentId: 'cs-bot',
      teamIds: ['cs-ops'],
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ key: { agentId: 'cs-bot', teamIds: ['cs-ops'] } });
  });
});
