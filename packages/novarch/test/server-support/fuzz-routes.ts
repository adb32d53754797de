import fc from 'fast-check';
import { expect } from 'vitest';
import { SERVER_ROUTES } from '../../src/server/routes/server-routes.js';
import type { ServerWorld } from '../unit/server/server-fixture.js';
import { lookupEvidence, refundProposal } from '../unit/server/server-fixture.js';

/** What the fuzzer found: every answer by operation, and the ones that broke the rules. */
export interface FuzzReport {
  requests: number;
  failures: string[];
}

interface OpenApiOperation {
  operationId: string;
  responses: Record<string, unknown>;
}

/** Bodies that broke the server from outside before: each route gets each of them too. */
const NASTY_BODIES: unknown[] = [
  undefined,
  null,
  [],
  'text',
  { startedAt: 'yesterday', finishedAt: '2026-13-45T99:99:99Z' },
  { source: 'gate', citations: { ruleIds: [], evidenceIds: [], rationale: 'x' } },
  { text: 'nul \u0000 byte', 'key\u0000': 1 },
  { teamId: 'x'.repeat(100_000), agentId: 'a' },
];

const DEEP_JSON = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
const ALIAS_BOMB = [
  'team: cs-ops',
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'rules: [*e]',
].join('\n');

/** A body that matches a valid one of the route with one field replaced by `value`. */
function mutate(valid: unknown, key: string, value: unknown): unknown {
  if (typeof valid !== 'object' || valid === null) return value;
  return { ...valid, [key]: value };
}

/**
 * Sends generated requests to every route of the app (valid credentials, ids that exist and ids
 * that do not, bodies valid, mutated, arbitrary and nasty) and checks every answer: no 5xx, and
 * its status one the OpenAPI document gives for that operation.
 */
export async function fuzzRoutes(
  world: ServerWorld,
  runsPerRoute: number,
  seed: number,
): Promise<FuzzReport> {
  const document = (await (await world.call('GET', '/openapi.json', undefined)).json()) as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  const key = await world.agentKey('acme', 'fuzz-bot');
  const operator = await world.operatorToken('fuzz-ana', [{ tenantId: 'acme' }]);
  const admin = await world.operatorToken('fuzz-admin', [{ tenantId: 'acme' }], 'admin');
  const opened = (await (
    await world.call('POST', '/v1/sessions', key, { teamId: 'cs-ops', agentId: 'cs-bot' })
  ).json()) as { id: string };
  await world.call('POST', `/v1/sessions/${opened.id}/evidence`, key, lookupEvidence('C1'));
  const decision = (await (
    await world.call('POST', `/v1/sessions/${opened.id}/actions`, key, refundProposal('C1', 900))
  ).json()) as { action: { id: string }; hold: { id: string } };
  // Decided before the fuzzing: a long-poll on it answers at once.
  await world.call('POST', `/v1/holds/${decision.hold.id}/abort`, key);
  const ids = fc.constantFrom(
    opened.id,
    decision.hold.id,
    decision.action.id,
    'acme',
    'cs-ops',
    '1',
    'latest',
    'ses_missing',
    'hold_missing',
    '%00',
    'x'.repeat(300),
    '%E2%80%8B',
    '-1',
  );
  const credentialOf = (access: string) =>
    access === 'public' ? undefined : access === 'admin' ? admin : access === 'operator' ? operator : key;
  const validBodies: Record<string, unknown> = {
    openSession: { teamId: 'cs-ops', agentId: 'cs-bot' },
    recordEvidence: lookupEvidence('C2'),
    proposeAction: refundProposal('C1', 10),
    recordRefusal: {
      source: 'gate',
      actionId: decision.action.id,
      citations: { ruleIds: [], evidenceIds: [], rationale: 'x' },
    },
    latchSession: { reason: 'x', source: 'gate' },
    killSession: { reason: 'x' },
    waitForHold: { timeoutMs: 0 },
    decideHold: { decision: 'approve' },
    createAgentKey: { tenantId: 'acme', name: 'k' },
    createOperatorToken: { name: 'eve', role: 'operator', grants: ['acme'] },
  };
  const failures: string[] = [];
  let requests = 0;
  const routes = SERVER_ROUTES.filter((route) => !('eventStream' in route.response));
  for (const route of routes) {
    const operation = document.paths[route.path]?.[route.method];
    const documented = new Set(Object.keys(operation?.responses ?? {}));
    const valid = validBodies[route.operationId];
    const body = fc.oneof(
      fc.constant(valid),
      fc.constantFrom(...NASTY_BODIES),
      fc.jsonValue({ maxDepth: 4 }),
      fc
        .tuple(
          fc.constantFrom(...Object.keys(typeof valid === 'object' && valid !== null ? valid : { x: 1 })),
          fc.jsonValue({ maxDepth: 3 }),
        )
        .map(([field, value]) => mutate(valid, field, value)),
    );
    const query = fc.dictionary(
      fc.constantFrom(
        'tenantId',
        'agentId',
        'sessionId',
        'status',
        'verdict',
        'limit',
        'killed',
        'from',
        'to',
        'team',
        'x',
      ),
      fc.oneof(fc.string(), fc.constantFrom('%00', '0', '-1', '1e9', 'pending', 'true', '2026-99-99')),
      { maxKeys: 3 },
    );
    const sample = fc.sample(fc.tuple(fc.array(ids, { minLength: 3, maxLength: 3 }), query, body), {
      numRuns: runsPerRoute,
      seed: seed + requests,
    });
    const extras: [string[], Record<string, string>, unknown, string?][] = [
      [[opened.id, decision.hold.id, decision.action.id], {}, undefined, DEEP_JSON],
      [[opened.id, decision.hold.id, decision.action.id], {}, undefined, 'x'.repeat(9 * 1024 * 1024)],
    ];
    if (route.textBody !== undefined) extras.push([['acme', 'cs-ops', '1'], {}, undefined, ALIAS_BOMB]);
    for (const [pathIds, params, json, raw] of [
      ...sample.map(([a, b, c]) => [a, b, c] as [string[], Record<string, string>, unknown]),
      ...extras,
    ]) {
      let index = 0;
      const path = route.path.replace(/\{[A-Za-z]+\}/g, () => pathIds[index++ % pathIds.length] ?? 'x');
      const search = Object.entries(params)
        .map(([name, value]) => `${name}=${value.startsWith('%') ? value : encodeURIComponent(value)}`)
        .join('&');
      const url = search === '' ? path : `${path}?${search}`;
      const credential = credentialOf(route.access);
      const response =
        raw !== undefined || route.textBody !== undefined
          ? await world.app.request(url, {
              method: route.method.toUpperCase(),
              headers: {
                ...(credential === undefined ? {} : { authorization: `Bearer ${credential}` }),
                ...world.secrets.headersFor(url),
                'content-type': route.textBody?.contentType ?? 'application/json',
              },
              ...(route.method === 'get'
                ? {}
                : { body: raw ?? (typeof json === 'string' ? json : JSON.stringify(json)) }),
            })
          : await world.call(
              route.method.toUpperCase(),
              url,
              credential,
              route.method === 'get' ? undefined : json,
            );
      requests += 1;
      const status = String(response.status);
      const text = await response.text();
      if (response.status >= 500 || !documented.has(status))
        failures.push(
          `${route.operationId} ${route.method.toUpperCase()} ${url.slice(0, 120)} body ${(raw ?? JSON.stringify(json) ?? '').slice(0, 120)} → ${status} ${text.slice(0, 200)}`,
        );
    }
  }
  return { requests, failures };
}

/** Runs the fuzzer and expects it to have found nothing. */
export async function expectFuzzClean(world: ServerWorld, runsPerRoute: number, seed: number): Promise<void> {
  const report = await fuzzRoutes(world, runsPerRoute, seed);
  expect(report.requests).toBeGreaterThan(runsPerRoute * 20);
  expect(report.failures).toEqual([]);
}
