import { waitUntil } from '@holodeck/testkit';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRulesFile } from '../../../src/rules/load-rules-file.js';
import { LEASE_REFUSAL_RATIONALE } from '../../../src/server/cluster/instance-lease.js';
import {
  SharedSignInLimiter,
  SIGN_IN_LIMIT_UNAVAILABLE,
} from '../../../src/server/cluster/shared-sign-in-limiter.js';
import type { ServerEvent } from '../../../src/server/server-events.js';
import { type RunningNovarchServer, startNovarchServer } from '../../../src/server/start-novarch-server.js';
import { openClusterStore } from '../../../src/store/open-cluster-store.js';
import { openPostgresStore } from '../../../src/store/open-postgres-store.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../e2e/support/webhook-receiver.js';
import { usePostgresServer } from '../../store/postgres-server.js';
import { GATE_RULES } from './server-fixture.js';

// Servers of one PostgreSQL, in this process, with short leases: the event relay across a lost
// LISTEN connection, the reaping of a dead server by two survivors, a server whose lease was
// taken, webhook claims. The two-process test (serve-two-servers.integration.test.ts) kills one.

const postgres = usePostgresServer();
const LEASE = { leaseMs: 1_500, renewEveryMs: 200, graceMs: 300 };
const running: RunningNovarchServer[] = [];
const clients: pg.Client[] = [];
const receivers: WebhookReceiver[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) await server.close().catch(() => {});
  for (const client of clients.splice(0)) await client.end().catch(() => {});
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function startServer(
  storeUrl: string,
  options: { onLeaseLost?: () => void; webhookUrl?: string; pruneAfterMs?: number } = {},
): Promise<RunningNovarchServer> {
  const server = await startNovarchServer({
    storeUrl,
    host: '127.0.0.1',
    port: 0,
    rules: [await loadRulesFile(GATE_RULES)],
    holdWindowSeconds: 60,
    lease: options.pruneAfterMs === undefined ? LEASE : { ...LEASE, pruneAfterMs: options.pruneAfterMs },
    log: () => {},
    ...(options.onLeaseLost === undefined ? {} : { onLeaseLost: options.onLeaseLost }),
    ...(options.webhookUrl === undefined
      ? {}
      : {
          webhooks: {
            targets: { acme: { url: options.webhookUrl, secret: 'whsec-acme-0123456789abcdef' } },
          },
        }),
  });
  running.push(server);
  return server;
}

async function sql(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  clients.push(client);
  return client;
}

describe('servers sharing one PostgreSQL', () => {
  it('an event published while a server lost its LISTEN connection reaches it once it reconnects', async () => {
    const url = await postgres.freshDatabase();
    const [a, b] = [await startServer(url), await startServer(url)];
    const seen: ServerEvent[] = [];
    const ownSeen: ServerEvent[] = [];
    b.events.subscribe((event) => seen.push(event));
    a.events.subscribe((event) => ownSeen.push(event));
    const scope = { tenantId: 'acme', teamId: 'cs-ops', agentId: 'bot' };
    const first = await a.stores.store.createSession(scope, 30);
    a.events.emitKill(first);
    await waitUntil(() => seen.length === 1, { timeoutMs: 10_000, what: 'B to see the first kill' });
    // Every LISTEN connection ended, as a PostgreSQL restart ends them; A publishes meanwhile.
    const admin = await sql(url);
    await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'LISTEN%' and pid <> pg_backend_pid()",
    );
    await waitUntil(() => b.cluster?.relay.listening === false, { timeoutMs: 10_000, what: 'B to notice' });
    const second = await a.stores.store.createSession(scope, 30);
    a.events.emitKill(second);
    await waitUntil(() => seen.length === 2, { timeoutMs: 15_000, what: 'B to catch up after reconnecting' });
    expect(b.cluster?.relay.listening).toBe(true);
    expect(seen.map((event) => event.sessionId)).toEqual([first.id, second.id]);
    // A's own events reach A's listeners once (the relay does not hand them back).
    await a.cluster?.relay.catchUp();
    expect(ownSeen.map((event) => event.sessionId)).toEqual([first.id, second.id]);
  });

  it('two survivors reap a dead server once: its unjudged write gets one refusal, its judged one none', async () => {
    const url = await postgres.freshDatabase();
    const admin = await sql(url);
    // A server that died: its lease row, long expired, and what it recorded through its store.
    const dead = await openPostgresStore(url, { instanceId: 'srv_dead' });
    const session = await dead.createSession({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'bot' }, 30);
    const call = {
      actionType: 'issue_refund',
      toolName: 'refund',
      input: {},
      context: { recordId: 'C1', summary: 'refund C1' },
    };
    const unjudged = await dead.recordAction({ sessionId: session.id, ...call });
    const judged = await dead.recordAction({ sessionId: session.id, ...call });
    await dead.recordVerdict({
      actionId: judged.id,
      sessionId: session.id,
      source: 'judge',
      verdict: { kind: 'pass', citations: { ruleIds: [], evidenceIds: [], rationale: 'fine' } },
    });
    await dead.close();
    await admin.query(
      `insert into server_instances (id, host, pid, started_at_ms, expires_at_ms)
       values ('srv_dead', 'gone', 1, 0, (extract(epoch from clock_timestamp()) * 1000)::bigint - 60000)`,
    );
    const [a, b] = await Promise.all([startServer(url), startServer(url)]);
    await Promise.all([a.cluster?.lease.reapExpired(), b.cluster?.lease.reapExpired()]);
    const reaped = await waitUntil(
      async () => {
        const row = await admin.query(
          "select reaper_id, orphans_refused from server_instances where id = 'srv_dead'",
        );
        return row.rows[0]?.orphans_refused === null ? undefined : row.rows[0];
      },
      { timeoutMs: 10_000, what: 'the dead server to be reaped' },
    );
    expect(reaped).toEqual({ reaper_id: expect.stringMatching(/^srv_/), orphans_refused: 1 });
    expect([a.cluster?.instanceId, b.cluster?.instanceId]).toContain(reaped.reaper_id);
    // More rounds of both change nothing.
    await Promise.all([a.cluster?.lease.reapExpired(), b.cluster?.lease.reapExpired()]);
    const verdicts = await admin.query(
      'select action_id, kind, source, citations_json from verdicts where session_id = $1 order by seq',
      [session.id],
    );
    expect(verdicts.rows.map((row) => [row.action_id, row.kind, row.source])).toEqual([
      [judged.id, 'pass', 'judge'],
      [unjudged.id, 'kill', 'gate'],
    ]);
    expect(JSON.parse(verdicts.rows[1]?.citations_json)).toMatchObject({
      rationale: LEASE_REFUSAL_RATIONALE,
    });
    // The servers' own actions carry their id.
    const own = await a.stores.store.recordAction({ sessionId: session.id, ...call });
    const row = await admin.query('select judged_by from actions where id = $1', [own.id]);
    expect(row.rows[0]?.judged_by).toBe(a.cluster?.instanceId);
  });

  it('rows of servers reaped long ago are pruned; recent ones, and claims of a pruned reaper, are kept and taken', async () => {
    const url = await postgres.freshDatabase();
    const admin = await sql(url);
    await (await openPostgresStore(url)).close();
    const now = '(extract(epoch from clock_timestamp()) * 1000)::bigint';
    const hour = 3_600_000;
    await admin.query(
      `insert into server_instances (id, host, pid, started_at_ms, expires_at_ms, reaper_id, reaped_at_ms, orphans_refused) values
       ('srv_old', 'gone', 1, 0, ${now} - ${2 * hour}, 'srv_x', ${now} - ${2 * hour}, 0),
       ('srv_recent', 'gone', 2, 0, ${now} - ${2 * hour}, 'srv_x', ${now} - 600000, 0),
       ('srv_stuck', 'gone', 3, 0, ${now} - ${2 * hour}, 'srv_pruned_reaper', null, null)`,
    );
    const a = await startServer(url, { pruneAfterMs: 30 * 60_000 });
    const rows = () =>
      admin
        .query('select id, reaper_id, reaped_at_ms is not null as reaped from server_instances order by id')
        .then((result) => result.rows);
    const after = await waitUntil(
      async () => {
        const found = await rows();
        const stuck = found.find((row) => row.id === 'srv_stuck');
        return found.some((row) => row.id === 'srv_old') || stuck?.reaped !== true ? undefined : found;
      },
      { timeoutMs: 10_000, what: 'the old row pruned and the stuck claim taken over' },
    );
    expect(after).toEqual(
      [
        { id: a.cluster?.instanceId, reaper_id: null, reaped: false },
        { id: 'srv_recent', reaper_id: 'srv_x', reaped: true },
        { id: 'srv_stuck', reaper_id: a.cluster?.instanceId, reaped: true },
      ].sort((x, y) => String(x.id).localeCompare(String(y.id))),
    );
    expect(await a.cluster?.lease.pruneReaped()).toBe(0);
  });

  it('a server whose lease was taken is told, and stores nothing more (503 with the reason)', async () => {
    const url = await postgres.freshDatabase();
    let lost = false;
    const a = await startServer(url, { onLeaseLost: () => (lost = true) });
    const key = (await a.stores.identities.createAgentKey({ tenantId: 'acme', name: 'bot' })).secret;
    const open = () =>
      fetch(`${a.url}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ teamId: 'cs-ops', agentId: 'bot' }),
      });
    expect((await open()).status).toBe(201);
    const admin = await sql(url);
    await admin.query("update server_instances set reaper_id = 'srv_other' where id = $1", [
      a.cluster?.instanceId,
    ]);
    await waitUntil(() => lost, { timeoutMs: 10_000, what: 'the server to learn its lease was taken' });
    const refused = await open();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({
      status: 503,
      detail: 'this server lost its lease (another server took over its judgements): restart it',
    });
  });

  it('webhooks: each delivery is sent by one server; a dead owner’s claim is taken once it expires', async () => {
    const url = await postgres.freshDatabase();
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const [a, b] = await Promise.all([
      startServer(url, { webhookUrl: `${receiver.url}/hooks` }),
      startServer(url, { webhookUrl: `${receiver.url}/hooks` }),
    ]);
    const admin = await sql(url);
    // Deliveries left by a server that died while sending them: claimed, its claim still running.
    const ids: string[] = [];
    for (let index = 0; index < 4; index++) {
      const delivery = await a.stores.store.recordWebhookDelivery({
        tenantId: 'acme',
        event: 'hold.created',
        url: receiver.url,
        payload: { index },
      });
      ids.push(delivery.id);
    }
    await admin.query(
      `update webhook_deliveries set claimed_by = 'srv_dead',
         claim_expires_at_ms = (extract(epoch from clock_timestamp()) * 1000)::bigint + 600000`,
    );
    // Both servers sweep every 2 s: none is sent while the dead server's claim runs.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(receiver.received).toEqual([]);
    await admin.query(
      'update webhook_deliveries set claim_expires_at_ms = (extract(epoch from clock_timestamp()) * 1000)::bigint - 1',
    );
    await waitUntil(
      async () =>
        (await admin.query("select count(*)::int as n from webhook_deliveries where status = 'delivered'"))
          .rows[0]?.n === 4,
      { timeoutMs: 20_000, what: 'the four deliveries to be sent' },
    );
    // Two more sweeps of each server: still one request per delivery.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    const received = receiver.received.map((request) => request.headers['novarch-delivery']);
    expect(received.sort()).toEqual([...ids].sort());
    const owners = await admin.query('select distinct claimed_by from webhook_deliveries');
    for (const row of owners.rows)
      expect([a.cluster?.instanceId, b.cluster?.instanceId]).toContain(row.claimed_by);
  });

  it('the shared sign-in limiter counts on PostgreSQL and refuses (503, saying why) when it cannot count', async () => {
    const url = await postgres.freshDatabase();
    await (await openPostgresStore(url)).close(); // migrated
    const cluster = openClusterStore(url);
    const limiter = new SharedSignInLimiter(cluster);
    for (let attempt = 0; attempt < 10; attempt++) await limiter.recordFailure('203.0.113.7');
    expect(await limiter.check('203.0.113.7')).toEqual({
      limited: true,
      retryAfterSeconds: expect.any(Number),
    });
    expect(await limiter.check('203.0.113.8')).toEqual({ limited: false });
    await cluster.close();
    await expect(limiter.check('203.0.113.8')).rejects.toMatchObject({
      status: 503,
      message: SIGN_IN_LIMIT_UNAVAILABLE,
    });
    expect(SIGN_IN_LIMIT_UNAVAILABLE).toBe(
      'Sign-in is unavailable: the store that counts failed sign-ins cannot be reached. Try again in a moment.',
    );
  });

  it('on SQLite a server has no cluster: one server per SQLite file', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const server = await startServer(`sqlite:${path.join(mkdtempSync(path.join(tmpdir(), 'nv-')), 'n.db')}`);
    expect(server.cluster).toBeUndefined();
  });
});
