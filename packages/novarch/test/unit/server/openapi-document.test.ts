import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createServerWorld,
  GATE_RULES,
  lookupEvidence,
  refundProposal,
  type ServerWorld,
} from './server-fixture.js';

// The document served at /openapi.json describes exactly the app's routes, and every answer of a
// scenario that calls each route validates against the schema the document gives for it.

let world: ServerWorld;
let document: { paths: Record<string, Record<string, OperationObject>> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
const validated = new Set<string>();

interface OperationObject {
  operationId: string;
  responses: Record<string, { content: Record<string, { schema: object }> }>;
}

function operationOf(method: string, path: string): OperationObject | undefined {
  for (const [template, operations] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(path.split('?')[0] ?? '')) {
      const operation = operations[method.toLowerCase()];
      if (operation) return operation;
    }
  }
  return undefined;
}

/** Calls the app and validates the JSON answer against the document's schema for its status. */
async function call(
  method: string,
  path: string,
  credential: string | undefined,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: the scenario reads many answer shapes, each validated against the document first
): Promise<any> {
  // A string body is a rules file's YAML text (the one route with a text body).
  const response =
    typeof body === 'string'
      ? await world.app.request(path, {
          method,
          headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/yaml' },
          body,
        })
      : await world.call(method, path, credential, body);
  const operation = operationOf(method, path);
  expect(operation, `${method} ${path} is in the document`).toBeDefined();
  const status = String(response.status);
  const media = response.headers.get('content-type')?.split(';')[0] ?? '';
  const schema = operation?.responses[status]?.content[media]?.schema;
  expect(schema, `${method} ${path}: the document describes ${status} ${media}`).toBeDefined();
  const value = await response.json();
  const validate = ajv.compile(schema ?? {});
  expect(validate(value), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  if (response.status < 300 && operation) validated.add(operation.operationId);
  return value;
}

beforeAll(async () => {
  world = await createServerWorld();
  document = (await (await world.app.request('/openapi.json')).json()) as typeof document;
});
afterAll(() => world.close());

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and lists every route of the app, and only those', () => {
    expect(document).toMatchObject({ openapi: '3.1.0' });
    // The console's pages (/console/*) are HTML for browsers, not API: the document leaves them out.
    const inApp = world.app.routes
      .filter((route) => route.method !== 'ALL' && !route.path.startsWith('/console'))
      .map((route) => `${route.method} ${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
    const inDocument = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(new Set(inApp).size).toBe(inApp.length);
    expect([...inApp].sort()).toEqual([...inDocument].sort());
  });

  it('leaves the console out, which the app serves at /console', () => {
    const consoleRoutes = world.app.routes.filter((route) => route.path.startsWith('/console'));
    expect(consoleRoutes.map((route) => `${route.method} ${route.path}`)).toContain('GET /console/sign-in');
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/console'))).toEqual([]);
  });

  it('describes every answer of a scenario that calls each route', async () => {
    const admin = await world.operatorToken('root', [{ tenantId: '*' }], 'admin');
    const operator = await world.operatorToken('ana', [{ tenantId: 'acme' }]);
    const key = await world.agentKey('acme');
    await call('GET', '/healthz', undefined);
    await call('GET', '/openapi.json', undefined);
    await call('GET', '/v1/me', key);
    await call('GET', '/v1/me', operator);
    const session = await call('POST', '/v1/sessions', key, {
      teamId: 'cs-ops',
      agentId: 'cs-bot',
      maxHoldS: 20,
    });
    const sid = session.id;
    await call('GET', '/v1/sessions', operator);
    await call('GET', `/v1/sessions/${sid}`, key);
    await call('POST', `/v1/sessions/${sid}/evidence`, key, lookupEvidence('C1'));
    await call('GET', `/v1/sessions/${sid}/evidence`, operator);
    const passed = await call('POST', `/v1/sessions/${sid}/actions`, key, refundProposal('C1', 100));
    expect(passed).toMatchObject({ verdict: { kind: 'pass' }, release: { released: true } });
    await call('POST', `/v1/sessions/${sid}/refusals`, key, {
      source: 'gate',
      call: {
        actionType: 'tool_call',
        toolName: 'Bash',
        input: { command: 'ls' },
        context: { recordId: 'x', summary: 'Bash refused' },
      },
      citations: { ruleIds: [], evidenceIds: [], rationale: 'unmapped' },
    });

    // The event stream: a hold created while it is open arrives as an event.
    const stream = await world.call('GET', '/v1/events', operator);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body?.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const readUntil = async (needle: string) => {
      const deadline = Date.now() + 5_000;
      while (!received.includes(needle) && Date.now() < deadline) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        received += decoder.decode(chunk.value);
      }
    };
    await readUntil('event: ready');
    const held = await call('POST', `/v1/sessions/${sid}/actions`, key, refundProposal('C1', 900));
    expect(held.hold.status).toBe('pending');
    await readUntil('event: hold-created');
    const data = /event: hold-created\ndata: (.+)\n/.exec(received)?.[1];
    const eventSchema =
      document.paths['/v1/events']?.get?.responses['200']?.content['text/event-stream']?.schema;
    const validateEvent = ajv.compile(eventSchema ?? {});
    const event = JSON.parse(data ?? 'null');
    expect(validateEvent(event), ajv.errorsText(validateEvent.errors)).toBe(true);
    expect(event).toMatchObject({ type: 'hold-created', tenantId: 'acme', hold: { id: held.hold.id } });
    validated.add('streamEvents');
    await reader?.cancel();

    await call('GET', '/v1/holds', operator);
    await call('GET', `/v1/holds/${held.hold.id}`, operator);
    expect(
      await call('POST', `/v1/holds/${held.hold.id}/wait`, key, {
        timeoutMs: 0,
        waiter: { pid: 42, host: 'agent-box' },
      }),
    ).toMatchObject({
      status: 'pending',
      waiter: { pid: 42, host: 'agent-box' },
    });
    const decided = await call('POST', `/v1/holds/${held.hold.id}/decision`, operator, {
      decision: 'approve',
    });
    expect(decided.hold).toMatchObject({ status: 'approved', decidedBy: 'ana' });
    expect(await call('POST', `/v1/holds/${held.hold.id}/wait`, key, {})).toMatchObject({
      status: 'approved',
    });
    const released = await call('POST', `/v1/sessions/${sid}/actions/${held.action.id}/release`, key);
    expect(released).toMatchObject({ released: true });
    const again = await call('POST', `/v1/sessions/${sid}/actions`, key, refundProposal('C1', 901));
    expect(await call('POST', `/v1/holds/${again.hold.id}/abort`, key)).toMatchObject({
      status: 'timed_out',
      decidedBy: 'novarch',
    });
    const notApproved = await call('POST', `/v1/sessions/${sid}/actions/${again.action.id}/release`, key);
    expect(notApproved.detail).toBe(
      `action ${again.action.id} has no approved hold (its hold is timed_out): only a write an operator approved is released here`,
    );
    await call('GET', `/v1/audit?sessionId=${sid}&limit=2`, operator);
    expect(await call('GET', '/v1/audit/verify', operator)).toMatchObject({ intact: true });
    const other = await call('POST', '/v1/sessions', key, { teamId: 'cs-ops', agentId: 'cs-bot' });
    await call('POST', `/v1/sessions/${other.id}/latch`, key, {
      reason: 'judge kill',
      source: 'judge',
      ruleIds: ['TEAM-1'],
    });
    const third = await call('POST', '/v1/sessions', key, { teamId: 'cs-ops', agentId: 'cs-bot' });
    expect(
      await call('POST', `/v1/sessions/${third.id}/kill`, operator, { reason: 'runaway' }),
    ).toMatchObject({
      killReason: 'operator ana: runaway',
    });

    await call('GET', '/v1/admin/keys', admin);
    const created = await call('POST', '/v1/admin/keys', admin, { tenantId: 'acme', name: 'ci' });
    expect(created.secret).toMatch(/^nva_[0-9a-f]{12}_/);
    await call('POST', `/v1/admin/keys/${created.key.id}/revoke`, admin);
    expect((await world.call('GET', '/v1/me', created.secret)).status).toBe(401);
    await call('GET', '/v1/admin/operators', admin);
    const token = await call('POST', '/v1/admin/operators', admin, {
      name: 'bob',
      role: 'operator',
      grants: ['acme/cs-ops'],
    });
    expect(token.secret).toMatch(/^nvo_[0-9a-f]{12}_/);
    await call('POST', `/v1/admin/operators/${token.token.id}/revoke`, admin);
    const rules = await readFile(GATE_RULES, 'utf8');
    const pushed = await call('POST', '/v1/rules/acme/cs-ops', admin, rules);
    expect(pushed).toMatchObject({ created: true, ruleSet: { version: 1 } });
    await call('POST', '/v1/rules/acme/cs-ops', admin, rules.replace('<= 500', '<= 600'));
    const refused = await call('POST', '/v1/rules/acme/cs-ops', admin, 'team: cs-ops\nrules: [\n');
    expect(refused.issues[0]).toMatchObject({ path: 'body', line: 3, column: 1 });
    expect(await call('GET', '/v1/rules', admin)).toHaveLength(2);
    await call('GET', '/v1/rules/acme/cs-ops/versions/latest', admin);
    await call('GET', '/v1/rules/acme/cs-ops/diff?from=1&to=2', admin);
    await call('GET', '/v1/rules/acme/cs-ops/calibration?since=2020-01-01T00:00:00Z', admin);

    // Problem answers validate too.
    await call('POST', '/v1/sessions', key, { teamId: '', agentId: 'x', extra: 1 });
    await call('GET', '/v1/holds/nope', operator);

    const operations = Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).map((operation) => operation.operationId),
    );
    expect([...validated].sort()).toEqual([...operations].sort());
  });

  it('a bad request names every field problem', async () => {
    const key = await world.agentKey('acme');
    const response = await world.call('POST', '/v1/sessions', key, { teamId: '', agentId: 'x', extra: 1 });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      issues: [
        {
          path: 'body.teamId',
          message: 'a team id is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
        },
        { path: 'body', message: 'unknown key "extra"' },
      ],
    });
    const malformed = await world.app.request('/v1/sessions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: '{"teamId":',
    });
    expect(await malformed.json()).toMatchObject({
      status: 400,
      detail: 'body: not valid JSON (send Content-Type: application/json)',
    });
    const unknownRoute = await world.app.request('/v2/nothing');
    expect(await unknownRoute.json()).toMatchObject({
      status: 404,
      detail: 'no route GET /v2/nothing: the routes are listed in /openapi.json',
    });
  });
});
