import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerWorld, lookupEvidence, type ServerWorld } from './server-fixture.js';

// Client mistakes that used to be answered 503 ("the store failed") or 500: each is a 4xx that
// says what is wrong and where.

let world: ServerWorld;
let key = '';
let admin = '';
let session = '';

beforeAll(async () => {
  world = await createServerWorld();
  key = await world.agentKey('acme');
  admin = await world.operatorToken('gia', [{ tenantId: 'acme' }], 'admin');
  const opened = await world.call('POST', '/v1/sessions', key, { teamId: 'cs-ops', agentId: 'cs-bot' });
  session = ((await opened.json()) as { id: string }).id;
});
afterAll(() => world.close());

async function problem(response: Response): Promise<{ status: number; detail: string }> {
  return { status: response.status, detail: ((await response.json()) as { detail: string }).detail };
}

function raw(url: string, body: string, contentType = 'application/json'): Promise<Response> {
  return Promise.resolve(
    world.app.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': contentType,
        ...world.secrets.headersFor(url),
      },
      body,
    }),
  );
}

describe('client errors are 4xx with what to fix', () => {
  it('a body over 8 MiB is 413, unread', async () => {
    const response = await raw(`/v1/sessions/${session}/evidence`, 'x'.repeat(8 * 1024 * 1024 + 1));
    expect(await problem(response)).toEqual({
      status: 413,
      detail: 'the request body is larger than 8388608 bytes: nothing of it was read or stored',
    });
  });

  it('JSON nested 5,000 deep is 400 naming where', async () => {
    const response = await raw(
      `/v1/sessions/${session}/evidence`,
      `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
    );
    expect(await problem(response)).toEqual({
      status: 400,
      detail: `body${'.0'.repeat(64)}: nested deeper than 64 levels: send a flatter value`,
    });
  });

  it('a NUL character in a body, a path or a query is 400 naming where', async () => {
    const evidence = { ...lookupEvidence('C1'), output: { text: 'a\u0000b' } };
    expect(
      await problem(await world.call('POST', `/v1/sessions/${session}/evidence`, key, evidence)),
    ).toEqual({
      status: 400,
      detail: 'body.output.text: contains a NUL character (\\u0000): remove it',
    });
    expect(await problem(await world.call('GET', '/v1/sessions/%00', key))).toEqual({
      status: 400,
      detail: 'path.sessionId: contains a NUL character (\\u0000): remove it',
    });
    expect(await problem(await world.call('GET', '/v1/audit?agentId=%00', key))).toEqual({
      status: 400,
      detail: 'query.agentId: contains a NUL character (\\u0000): remove it',
    });
  });

  it('an evidence time that is not an ISO-8601 UTC time is 400', async () => {
    const evidence = { ...lookupEvidence('C1'), finishedAt: 'yesterday' };
    expect(
      await problem(await world.call('POST', `/v1/sessions/${session}/evidence`, key, evidence)),
    ).toEqual({
      status: 400,
      detail: 'body.finishedAt: expected an ISO-8601 UTC time such as 2026-05-01T12:00:00.000Z',
    });
  });

  it('a refusal naming neither an action nor a call is 400; an unknown action 404', async () => {
    const citations = { ruleIds: [], evidenceIds: [], rationale: 'x' };
    expect(
      await problem(
        await world.call('POST', `/v1/sessions/${session}/refusals`, key, { source: 'gate', citations }),
      ),
    ).toEqual({
      status: 400,
      detail:
        'body.actionId: a refusal names the refused call: send actionId (an action already recorded) or call',
    });
    const unknown = await world.call('POST', `/v1/sessions/${session}/refusals`, key, {
      source: 'gate',
      actionId: 'act_missing',
      citations,
    });
    expect(await problem(unknown)).toEqual({
      status: 404,
      detail: 'no action "act_missing" is visible to this credential',
    });
  });

  it('a rules file that is an alias bomb is 400, not 500', async () => {
    const bomb = [
      'team: cs-ops',
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'rules: [*d]',
    ].join('\n');
    const response = await world.app.request('/v1/rules/acme/cs-ops', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/yaml' },
      body: bomb,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      issues: [
        {
          path: 'body',
          message: 'the YAML expands its aliases (*name) more than 100 times',
          // the first alias, *a on line 3
          line: 3,
          column: 8,
          hint: 'write the repeated values out, or use fewer anchors and aliases',
        },
      ],
    });
  });
});
