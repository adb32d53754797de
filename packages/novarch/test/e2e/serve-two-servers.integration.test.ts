import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeAnthropic, toolUse, waitUntil } from '@holodeck/testkit';
import { type RunningPostgres, startPostgres } from '@holodeck/testkit/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LEASE_REFUSAL_RATIONALE } from '../../src/server/cluster/instance-lease.js';
import { agentOverHttp } from './support/agent-over-http.js';
import { JUDGED_WRITE_RULES } from './support/judged-write-rules.js';
import { type NovarchServerProcess, startServerProcess } from './support/novarch-server-process.js';
import { type RoundRobinProxy, startRoundRobinProxy } from './support/round-robin-proxy.js';
import { createSecret } from './support/run-novarch-cli.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

// Two real `novarch serve` processes on one real PostgreSQL, behind a loopback round-robin proxy:
// a decision on server A reaches the agent waiting through server B (and B's event stream); the
// sign-in limiter counts across both; then server A is killed with SIGKILL mid-load, a write in
// the middle of its judgement: the survivor refuses it, every write has exactly one decision,
// and every hold's webhook is sent once.

const SECRET = 'whsec-acme-0123456789abcdef';
const HoldAnswer = z.object({ hold: z.object({ id: z.string(), status: z.string() }) });
const Decision = z.object({ action: z.object({ id: z.string() }), verdict: z.object({ kind: z.string() }) });

let postgres: RunningPostgres;
let database: pg.Client;
let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
let receiver: WebhookReceiver;
let proxy: RoundRobinProxy;
let serverA: NovarchServerProcess;
let serverB: NovarchServerProcess;
let agentKey = '';
let operatorToken = '';

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.createDatabase('novarch_two_servers');
  fake = await startFakeAnthropic();
  receiver = await startWebhookReceiver();
  const directory = mkdtempSync(path.join(tmpdir(), 'novarch-two-servers-'));
  writeFileSync(path.join(directory, 'rules.yaml'), JUDGED_WRITE_RULES);
  const config = path.join(directory, 'novarch.yaml');
  writeFileSync(
    config,
    `hold_window_seconds: 120\njudge: { provider: anthropic }\nrules: [rules.yaml]\nserver:\n  store_url: ${url}\n`,
  );
  agentKey = await createSecret(['keys', 'create', '--config', config, '--tenant', 'acme', '--name', 'bot']);
  operatorToken = await createSecret([
    'operators',
    'create',
    '--config',
    config,
    '--name',
    'ana',
    '--grant',
    'acme',
  ]);
  const start = () =>
    startServerProcess(['--config', config, '--webhook', `acme=${receiver.url}/hooks`], {
      NOVARCH_WEBHOOK_SECRET_ACME: SECRET,
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: 'sk-ant-test-judge',
    });
  [serverA, serverB] = await Promise.all([start(), start()]);
  proxy = await startRoundRobinProxy([serverA.url, serverB.url]);
  database = new pg.Client({ connectionString: url });
  await database.connect();
}, 180_000);

afterAll(async () => {
  for (const server of [serverA, serverB])
    if (server !== undefined && server.child.exitCode === null) server.child.kill('SIGKILL');
  await database?.end().catch(() => {});
  await proxy?.close();
  await receiver?.close();
  await fake?.close();
  await postgres?.stop();
}, 60_000);

/** The events of `/v1/events` on `serverUrl`, as they arrive. */
function eventStream(serverUrl: string) {
  const events: Array<{ type: string; holdId?: string; status?: string }> = [];
  const controller = new AbortController();
  const ready = (async () => {
    const response = await fetch(`${serverUrl}/v1/events`, {
      headers: { authorization: `Bearer ${operatorToken}` },
      signal: controller.signal,
    });
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('no event stream');
    let buffer = '';
    let resolveReady: () => void = () => {};
    const isReady = new Promise<void>((resolve) => {
      resolveReady = resolve;
    });
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        buffer += new TextDecoder().decode(value);
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (type === 'ready') resolveReady();
          else if (type !== undefined && data !== undefined) {
            const event = z
              .object({ hold: z.object({ id: z.string(), status: z.string() }).optional() })
              .parse(JSON.parse(data));
            events.push({ type, holdId: event.hold?.id, status: event.hold?.status });
          }
          end = buffer.indexOf('\n\n');
        }
      }
    })();
    await isReady;
  })();
  return { events, ready, close: () => controller.abort() };
}

async function decide(serverUrl: string, holdId: string) {
  const response = await fetch(`${serverUrl}/v1/holds/${holdId}/decision`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ decision: 'approve', rationale: 'checked the order' }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('two novarch serve processes on one PostgreSQL', () => {
  it('an operator on server A approves a hold an agent waits for through server B; both event streams see it', async () => {
    const streamA = eventStream(serverA.url);
    const streamB = eventStream(serverB.url);
    await Promise.all([streamA.ready, streamB.ready]);
    const agent = agentOverHttp(serverB.url, agentKey);
    const sessionId = await agent.openSession();
    const held = await agent.call('POST', `/v1/sessions/${sessionId}/actions`, {
      actionType: 'issue_credit',
      toolName: 'mcp__cs__issue_credit',
      input: { customer_id: 'C1', amount: 900 },
      context: { recordId: 'C1', summary: 'credit C1', amount: 900 },
    });
    expect(held.status).toBe(200);
    const holdId = HoldAnswer.parse(held.body).hold.id;
    // The agent waits through B (its check-in lets an operator decide).
    const waited = agent.call('POST', `/v1/holds/${holdId}/wait`, { timeoutMs: 60_000 });
    await waitUntil(
      async () => {
        const row = await database.query('select waiter_seen_at from holds where id = $1', [holdId]);
        return row.rows[0]?.waiter_seen_at != null;
      },
      { timeoutMs: 20_000, what: 'the agent to check in on its hold through server B' },
    );
    expect(await decide(serverA.url, holdId)).toMatchObject({ status: 200 });
    expect(await waited).toMatchObject({
      status: 200,
      body: { id: holdId, status: 'approved', decidedBy: 'ana' },
    });
    // A's stream saw the hold B created; B's stream saw the decision A made: only the
    // PostgreSQL relay carries them (/v1/events does not read the store).
    await waitUntil(
      () =>
        streamA.events.some((event) => event.type === 'hold-created' && event.holdId === holdId) &&
        streamB.events.some(
          (event) => event.type === 'hold-decided' && event.holdId === holdId && event.status === 'approved',
        ),
      { timeoutMs: 20_000, what: 'both event streams to see the hold and its decision' },
    );
    streamA.close();
    streamB.close();
  });

  it('the sign-in limiter counts the failures of both servers: 10 in all, then 429', async () => {
    const before = proxy.served.length;
    const signIn = () =>
      fetch(`${proxy.url}/console/sign-in`, {
        method: 'POST',
        headers: { origin: proxy.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'token=nvo_wrong',
        redirect: 'manual',
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) statuses.push((await signIn()).status);
    expect(statuses).toEqual([...new Array<number>(10).fill(401), 429]);
    // Both servers answered some of them (a per-process limiter would have allowed 20).
    expect(new Set(proxy.served.slice(before))).toEqual(new Set([0, 1]));
    const refused = await signIn();
    expect(refused.status).toBe(429);
    expect(await refused.text()).toMatch(
      /Too many failed sign-ins from your address: try again in \d+ seconds?\./,
    );
  });

  it('kill -9 of server A mid-load: nothing lost, nothing doubled', async () => {
    // A refund on server A whose LLM judge never answers: in the middle of its judgement at the kill.
    fake.script(
      toolUse(
        'submit_rule_verdicts',
        { verdicts: [{ rule_id: 'LLM-1', violated: false, rationale: 'in good standing' }] },
        { delayMs: 600_000 },
      ),
    );
    const onA = agentOverHttp(serverA.url, agentKey);
    const refundSession = await onA.openSession();
    const asked = fake.requests.length;
    const refund = onA.refund(refundSession, 'C9', 120, { release: true }).catch(() => 'connection lost');
    await waitUntil(() => fake.requests.length > asked, { timeoutMs: 30_000, what: 'the judge to be asked' });
    // Load through the proxy: credits that pass, credits held (each a webhook).
    const answered: Array<{ actionId: string; kind: string }> = [];
    const failures: number[] = [];
    let stop = false;
    let count = 0;
    async function load(): Promise<void> {
      const agent = agentOverHttp(proxy.url, agentKey);
      while (!stop) {
        try {
          const opened = await agent.call('POST', '/v1/sessions', { teamId: 'cs-ops', agentId: 'bot' });
          if (opened.status !== 201) {
            failures.push(opened.status);
            continue;
          }
          const sessionId = z.object({ id: z.string() }).parse(opened.body).id;
          const amount = count++ % 3 === 0 ? 900 : 100;
          const proposed = await agent.call('POST', `/v1/sessions/${sessionId}/actions`, {
            actionType: 'issue_credit',
            toolName: 'mcp__cs__issue_credit',
            input: { customer_id: 'C1', amount },
            context: { recordId: 'C1', summary: 'credit C1', amount },
            release: true,
          });
          if (proposed.status !== 200) {
            failures.push(proposed.status);
            continue;
          }
          const decision = Decision.parse(proposed.body);
          answered.push({ actionId: decision.action.id, kind: decision.verdict.kind });
        } catch {
          failures.push(-1);
        }
      }
    }
    const workers = [load(), load(), load(), load()];
    await waitUntil(() => answered.length >= 20, { timeoutMs: 60_000, what: '20 answered writes' });
    const killedAt = Date.now();
    serverA.child.kill('SIGKILL');
    await serverA.exited;
    await waitUntil(() => answered.length >= 40, {
      timeoutMs: 60_000,
      what: '20 more writes after the kill',
    });
    stop = true;
    await Promise.all(workers);
    expect(await refund).toBe('connection lost');

    // The survivor takes A's lease once it expired, and refuses the write A was judging.
    const refusal = await waitUntil(
      async () => {
        const rows = await database.query(
          `select v.kind, v.source, v.citations_json from verdicts v join actions a on a.id = v.action_id
           where a.session_id = $1`,
          [refundSession],
        );
        return rows.rows.length > 0 ? rows.rows : undefined;
      },
      { timeoutMs: 40_000, what: 'the survivor to refuse the write server A was judging', intervalMs: 200 },
    );
    expect(refusal).toEqual([
      expect.objectContaining({
        kind: 'kill',
        source: 'gate',
        citations_json: expect.stringContaining(LEASE_REFUSAL_RATIONALE),
      }),
    ]);
    // The server says so once the refusal is stored: its line may reach us after the row does.
    const takenOver = /stopped renewing its lease: \d+ write\(s\) it was judging stored as refused/;
    await waitUntil(() => takenOver.test(serverB.output()), {
      timeoutMs: 10_000,
      what: 'server B to report the lease it took over',
    });

    // Nothing lost: each write an agent was answered for is stored with that verdict.
    const stored = await database.query<{ id: string; kinds: string; holds: string }>(
      `select a.id,
         coalesce(string_agg(v.kind, ',' order by v.seq) filter (where v.kind <> 'hold'), '') as kinds,
         (select count(*) from holds h where h.action_id = a.id)::text as holds
       from actions a left join verdicts v on v.action_id = a.id group by a.id`,
    );
    const byId = new Map(stored.rows.map((row) => [row.id, row]));
    for (const { actionId, kind } of answered) {
      const row = byId.get(actionId);
      expect(row, `write ${actionId} is stored`).toBeDefined();
      if (kind === 'hold') expect(row?.holds).toBe('1');
      else expect(row?.kinds).toBe(kind);
    }
    // Nothing doubled or left: every write has exactly one decision (a pass or kill verdict, or a hold).
    const undecided = stored.rows.filter(
      (row) => (row.kinds === '' ? 0 : row.kinds.split(',').length) + Number(row.holds) !== 1,
    );
    expect(undecided).toEqual([]);

    // Every hold's webhook: one delivery, sent and received once (a delivery A had on the wire
    // at the kill may come twice: delivery is at least once, receivers dedupe on its id).
    const holds = await database.query<{ id: string }>('select id from holds');
    const deliveries = await waitUntil(
      async () => {
        const rows = await database.query<{ id: string; hold_id: string; status: string }>(
          'select id, hold_id, status from webhook_deliveries',
        );
        return rows.rows.every((row) => row.status === 'delivered') ? rows.rows : undefined;
      },
      { timeoutMs: 40_000, what: 'every webhook to be delivered', intervalMs: 200 },
    );
    expect(deliveries.map((row) => row.hold_id).sort()).toEqual(holds.rows.map((row) => row.id).sort());
    for (const delivery of deliveries) {
      const received = receiver.received.filter(
        (request) => request.headers['novarch-delivery'] === delivery.id,
      );
      expect(received.length, `delivery ${delivery.id}`).toBeGreaterThanOrEqual(1);
      if (received.length > 1) expect(Math.abs((received[0]?.at ?? 0) - killedAt)).toBeLessThan(500);
    }
    expect(serverB.child.exitCode).toBeNull();
  });
});
