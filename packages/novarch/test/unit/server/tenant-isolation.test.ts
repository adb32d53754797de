import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_ROUTES } from '../../../src/server/routes/server-routes.js';
import { createServerWorld, lookupEvidence, refundProposal, type ServerWorld } from './server-fixture.js';

// Two tenants on one server. Whatever route a credential of globex calls with the ids of acme,
// it gets 404 (as for an id that does not exist) and nothing of acme changes.

let world: ServerWorld;
const acme = { key: '', operator: '', session: '', hold: '', action: '', evidence: '', keyId: '' };
const globex = { key: '', operator: '', admin: '', session: '' };

async function json(response: Response): Promise<unknown> {
  return response.json();
}

async function openHeldRefund(key: string, customer: string) {
  const session = await json(
    await world.call('POST', '/v1/sessions', key, { teamId: 'cs-ops', agentId: 'cs-bot' }),
  );
  const id = (session as { id: string }).id;
  const evidence = await json(
    await world.call('POST', `/v1/sessions/${id}/evidence`, key, lookupEvidence(customer)),
  );
  const decision = await json(
    await world.call('POST', `/v1/sessions/${id}/actions`, key, refundProposal(customer, 900)),
  );
  const { hold, action } = decision as { hold: { id: string; status: string }; action: { id: string } };
  expect(hold.status).toBe('pending');
  return { session: id, hold: hold.id, action: action.id, evidence: (evidence as { id: string }).id };
}

beforeAll(async () => {
  world = await createServerWorld();
  acme.key = await world.agentKey('acme');
  globex.key = await world.agentKey('globex');
  acme.operator = await world.operatorToken('ana', [{ tenantId: 'acme' }]);
  globex.operator = await world.operatorToken('gus', [{ tenantId: 'globex' }]);
  globex.admin = await world.operatorToken('gia', [{ tenantId: 'globex' }], 'admin');
  acme.keyId =
    (await world.stores.identities.listAgentKeys()).find((key) => key.tenantId === 'acme')?.id ?? '';
  Object.assign(acme, await openHeldRefund(acme.key, 'C1'));
  globex.session = (await openHeldRefund(globex.key, 'G1')).session;
});
afterAll(() => world.close());

/** A valid body for every route that takes one, so a 404 is not hidden behind a 400. */
const BODIES: Record<string, unknown> = {
  openSession: { teamId: 'cs-ops', agentId: 'cs-bot' },
  recordEvidence: lookupEvidence('C1'),
  latchSession: { reason: 'x', source: 'gate' },
  killSession: { reason: 'x' },
  proposeAction: refundProposal('C1', 10),
  recordRefusal: {
    source: 'gate',
    call: { actionType: 'x', toolName: 'x', context: { recordId: 'r', summary: 's' } },
    citations: { ruleIds: [], evidenceIds: [], rationale: 'x' },
  },
  waitForHold: { timeoutMs: 0 },
  decideHold: { decision: 'approve' },
  createAgentKey: { tenantId: 'acme', name: 'stolen' },
  createOperatorToken: { name: 'eve', role: 'operator', grants: ['acme'] },
};
// pushRuleSet's body is a rules file's text: any body reaches the 404 (no team of acme is visible).

function globexCredential(access: string): string {
  if (access === 'admin') return globex.admin;
  if (access === 'operator') return globex.operator;
  return globex.key;
}

function acmeIds(path: string): string {
  return path
    .replace('{sessionId}', acme.session)
    .replace('{holdId}', acme.hold)
    .replace('{actionId}', acme.action)
    .replace('{id}', acme.keyId)
    .replace('{tenantId}', 'acme')
    .replace('{teamId}', 'cs-ops')
    .replace('{version}', '1')
    .replace(/\/diff$/, '/diff?from=1&to=1');
}

describe('tenant isolation', () => {
  const withIds = SERVER_ROUTES.filter((route) => route.path.includes('{'));

  it.each(withIds.map((route) => [route.operationId, route] as const))(
    '%s with ids of another tenant is 404, as for an unknown id',
    async (_name, route) => {
      if (route.body !== undefined)
        expect(BODIES[route.operationId], `a body for ${route.operationId}`).toBeDefined();
      const path = route.operationId.endsWith('OperatorToken')
        ? route.path.replace('{id}', (await world.stores.identities.listOperatorTokens())[0]?.id ?? '')
        : acmeIds(route.path);
      const response = await world.call(
        route.method.toUpperCase(),
        path,
        globexCredential(route.access),
        BODIES[route.operationId],
      );
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await json(response)).toMatchObject({
        status: 404,
        detail: expect.stringMatching(/^no .+ is visible to this credential$/),
      });
    },
  );

  it('changed nothing of the other tenant', async () => {
    const hold = await json(await world.call('GET', `/v1/holds/${acme.hold}`, acme.operator));
    expect(hold).toMatchObject({ hold: { status: 'pending' }, session: { id: acme.session } });
    expect((hold as { session: { killedAt?: string } }).session.killedAt).toBeUndefined();
    const evidence = await json(await world.call('GET', `/v1/sessions/${acme.session}/evidence`, acme.key));
    expect(evidence).toHaveLength(1);
    const keys = await world.stores.identities.listAgentKeys();
    expect(keys.find((key) => key.id === acme.keyId)?.revokedAt).toBeUndefined();
    expect(await world.stores.store.listRuleSets()).toEqual([]);
  });

  it('lists only the caller tenant: sessions, holds, audit, evidence', async () => {
    for (const credential of [globex.key, globex.operator]) {
      const sessions = (await json(await world.call('GET', '/v1/sessions', credential))) as {
        tenantId: string;
      }[];
      expect(sessions.map((session) => session.tenantId)).toEqual(['globex']);
      const holds = (await json(await world.call('GET', '/v1/holds', credential))) as {
        hold: { sessionId: string };
      }[];
      expect(holds.map((summary) => summary.hold.sessionId)).toEqual([globex.session]);
      const audit = (await json(await world.call('GET', '/v1/audit', credential))) as {
        session: { tenantId: string };
      }[];
      expect(new Set(audit.map((entry) => entry.session.tenantId))).toEqual(new Set(['globex']));
      expect(await json(await world.call('GET', `/v1/audit?sessionId=${acme.session}`, credential))).toEqual(
        [],
      );
      expect(await json(await world.call('GET', '/v1/sessions?tenantId=acme', credential))).toEqual([]);
    }
  });

  it('an operator granted another team of the tenant sees nothing of this team', async () => {
    const other = await world.operatorToken('tom', [{ tenantId: 'acme', teamId: 'billing' }]);
    expect(
      (await world.call('POST', `/v1/holds/${acme.hold}/decision`, other, { decision: 'approve' })).status,
    ).toBe(404);
    expect(await json(await world.call('GET', '/v1/holds', other))).toEqual([]);
  });

  it('an agent key may not open a session of another tenant (403, naming both)', async () => {
    const response = await world.call('POST', '/v1/sessions', globex.key, {
      tenantId: 'acme',
      teamId: 'cs-ops',
      agentId: 'x',
    });
    expect(response.status).toBe(403);
    expect(await json(response)).toMatchObject({
      detail: 'this agent key belongs to tenant "globex"; it may not open sessions of tenant "acme"',
    });
  });
});

describe('credentials', () => {
  it.each(
    SERVER_ROUTES.filter((route) => route.access !== 'public').map(
      (route) => [route.operationId, route] as const,
    ),
  )('%s without a credential is 401 with WWW-Authenticate', async (_name, route) => {
    const response = await world.call(
      route.method.toUpperCase(),
      acmeIds(route.path),
      undefined,
      BODIES[route.operationId],
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="novarch"');
    expect(await json(response)).toMatchObject({
      title: 'Unauthorized',
      detail:
        'no credential: send "Authorization: Bearer <key>" with an agent key (nva_…, `novarch keys create`) or an operator token (nvo_…, `novarch operators create`)',
    });
  });

  it('a wrong, malformed or revoked credential is 401 without saying which', async () => {
    const revoked = await world.agentKey('acme', 'old');
    const id = revoked.slice(0, 16);
    await world.stores.identities.revokeAgentKey(id);
    const tampered = `${acme.key.slice(0, -1)}${acme.key.endsWith('A') ? 'B' : 'A'}`;
    for (const credential of ['nonsense', tampered, revoked]) {
      const response = await world.call('GET', '/v1/sessions', credential);
      expect(response.status).toBe(401);
      expect(await json(response)).toMatchObject({
        detail: 'the credential is not valid here (unknown or revoked): ask an admin for a new one',
      });
    }
  });

  it('an agent key cannot decide a hold or kill a session (403), and nothing changes', async () => {
    const decide = await world.call('POST', `/v1/holds/${acme.hold}/decision`, acme.key, {
      decision: 'approve',
    });
    expect(decide.status).toBe(403);
    expect(await json(decide)).toMatchObject({
      detail: 'an agent key may not decide holds or kill sessions: an operator token (nvo_…) is needed',
    });
    expect(
      (await world.call('POST', `/v1/sessions/${acme.session}/kill`, acme.key, { reason: 'x' })).status,
    ).toBe(403);
    const hold = (await json(await world.call('GET', `/v1/holds/${acme.hold}`, acme.key))) as {
      hold: { status: string };
    };
    expect(hold.hold.status).toBe('pending');
  });

  it('an operator token cannot govern a session, and a plain operator cannot manage keys (403)', async () => {
    const open = await world.call('POST', '/v1/sessions', acme.operator, { teamId: 'cs-ops', agentId: 'x' });
    expect(open.status).toBe(403);
    expect(await json(open)).toMatchObject({
      detail: 'only an agent key may do this (an operator token governs no session)',
    });
    const keys = await world.call('POST', '/v1/admin/keys', acme.operator, { tenantId: 'acme', name: 'x' });
    expect(await json(keys)).toMatchObject({
      status: 403,
      detail: 'only an admin token may manage agent keys, operator tokens and rules',
    });
  });
});

describe('a decision', () => {
  it('refuses a body that names who decides; the operator is the token', async () => {
    const named = await world.call('POST', `/v1/holds/${acme.hold}/decision`, acme.operator, {
      decision: 'approve',
      decidedBy: 'mallory',
    });
    expect(named.status).toBe(400);
    expect(await json(named)).toMatchObject({
      detail: 'body: unknown key "decidedBy"',
      issues: [{ path: 'body', message: 'unknown key "decidedBy"' }],
    });
  });

  it('records the operator of the token, never of the body', async () => {
    // Someone waits on the hold: a decision on a hold no agent waits on is refused (409).
    await world.call('POST', `/v1/holds/${acme.hold}/wait`, acme.key, { timeoutMs: 0 });
    const response = await world.call('POST', `/v1/holds/${acme.hold}/decision`, acme.operator, {
      decision: 'approve',
      rationale: 'checked',
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({
      hold: { status: 'approved', decidedBy: 'ana', rationale: 'checked' },
    });
    const again = await world.call('POST', `/v1/holds/${acme.hold}/decision`, acme.operator, {
      decision: 'deny',
      rationale: 'no',
    });
    expect(again.status).toBe(409);
    expect(((await json(again)) as { detail: string }).detail).toMatch(
      /^Hold .+ was already approved by ana at .+: checked\. Nothing was changed\.$/,
    );
  });
});

/** The dotted paths of every key ending in `Id`/`Ids` in a zod schema (objects, optionals, arrays). */
function idFields(schema: unknown, prefix = ''): string[] {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (def === undefined) return [];
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default')
    return idFields(def.innerType, prefix);
  if (def.type !== 'object') return [];
  const shape = def.shape as Record<string, unknown>;
  return Object.entries(shape).flatMap(([key, value]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    return /Ids?$/.test(key) ? [path] : idFields(value, path);
  });
}

describe('tenant isolation of the ids in bodies and queries', () => {
  // Every id field a body or query names, on the caller's own session, with the other tenant's id.
  const CASES: Record<string, (ids: typeof acme) => unknown> = {
    'recordRefusal body.actionId': (ids) => ({ ...(BODIES.recordRefusal as object), actionId: ids.action }),
    'recordRefusal body.citations.ruleIds': () => null,
    'recordRefusal body.citations.evidenceIds': (ids) => ({
      source: 'gate',
      call: refundProposalCall(),
      citations: { ruleIds: [], evidenceIds: [ids.evidence], rationale: 'x' },
    }),
    'latchSession body.actionId': (ids) => ({ reason: 'x', source: 'gate', actionId: ids.action }),
    'latchSession body.ruleIds': () => null,
    'latchSession body.evidenceIds': (ids) => ({ reason: 'x', source: 'gate', evidenceIds: [ids.evidence] }),
    'openSession body.tenantId': () => ({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'x' }),
    'openSession body.teamId': () => null,
    'openSession body.agentId': () => null,
    'createAgentKey body.tenantId': () => ({ tenantId: 'acme', name: 'stolen' }),
    'createAgentKey body.agentId': () => null,
    'createAgentKey body.teamIds': () => null,
    // The agent's business record (a customer id): data of the write, not a Novarch record.
    'proposeAction body.context.recordId': () => null,
    'recordRefusal body.call.context.recordId': () => null,
  };

  function refundProposalCall() {
    const { actionType, toolName, input, context } = refundProposal('G1', 1);
    return { actionType, toolName, input, context };
  }

  it('every id field of every body is in the table below (a new one must be added)', () => {
    const found = SERVER_ROUTES.flatMap((route) =>
      idFields(route.body).map((field) => `${route.operationId} body.${field}`),
    );
    // Rule ids, team and agent names are not records of a tenant: nothing to reach with them (null).
    expect(found.sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.entries(CASES).filter(([, body]) => body(acme) !== null))(
    '%s of the other tenant is refused and writes nothing',
    async (name, body) => {
      const operationId = name.split(' ')[0] ?? '';
      const route = SERVER_ROUTES.find((candidate) => candidate.operationId === operationId);
      if (route === undefined) throw new Error(`no route ${operationId}`);
      const path = route.path.replace('{sessionId}', globex.session);
      const credential = route.access === 'admin' ? globex.admin : globex.key;
      const response = await world.call(route.method.toUpperCase(), path, credential, body(acme));
      expect([403, 404]).toContain(response.status);
      const problem = (await json(response)) as { detail: string };
      if (response.status === 404)
        expect(problem.detail).toMatch(/^no (action|evidence) ".+" is visible to this credential$/);
      const audit = (await json(
        await world.call('GET', `/v1/audit?sessionId=${acme.session}`, acme.operator),
      )) as { verdicts: { source: string }[] }[];
      expect(audit.flatMap((entry) => entry.verdicts.map((verdict) => verdict.source))).toEqual(['judge']);
      const own = (await json(await world.call('GET', `/v1/sessions/${globex.session}`, globex.key))) as {
        killedAt?: string;
      };
      expect(own.killedAt).toBeUndefined();
    },
  );

  it('query ids of the other tenant find nothing', async () => {
    for (const query of [`sessionId=${acme.session}`]) {
      expect(await json(await world.call('GET', `/v1/holds?${query}`, globex.operator))).toEqual([]);
      expect(await json(await world.call('GET', `/v1/audit?${query}`, globex.key))).toEqual([]);
    }
    expect(await json(await world.call('GET', '/v1/sessions?tenantId=acme', globex.key))).toEqual([]);
  });
});
