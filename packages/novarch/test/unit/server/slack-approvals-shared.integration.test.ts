import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeSlackApi, startFakeSlackApi, waitUntil } from '@holodeck/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRulesFile } from '../../../src/rules/load-rules-file.js';
import { type RunningNovarchServer, startNovarchServer } from '../../../src/server/start-novarch-server.js';
import { SessionSecrets } from '../../server-support/session-secrets.js';
import { usePostgresServer } from '../../store/postgres-server.js';
import { lookupEvidence, refundProposal } from './server-fixture.js';

// The Slack messages of a hold live in the store (migration 16): a hold posted by one server is
// updated by another server of the same PostgreSQL, or by the same SQLite store's server after a
// restart, once; and two servers that both see a new hold post it once.

const RULES = fileURLToPath(new URL('../../fixtures/rules/cs-ops-approvals.rules.yaml', import.meta.url));
const CHANNEL = 'C0CSOPS';
const postgres = usePostgresServer();
const running: RunningNovarchServer[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) await server.close().catch(() => {});
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function startServer(storeUrl: string, slack: FakeSlackApi): Promise<RunningNovarchServer> {
  const server = await startNovarchServer({
    storeUrl,
    host: '127.0.0.1',
    port: 0,
    rules: [await loadRulesFile(RULES)],
    holdWindowSeconds: 120,
    lease: { leaseMs: 3_000, renewEveryMs: 300, graceMs: 500 },
    log: () => {},
    slack: {
      botToken: slack.botToken,
      signingSecret: slack.signingSecret,
      apiUrl: slack.apiUrl,
      teamChannels: { 'cs-ops': CHANNEL },
      ruleChannels: {},
      operators: { U0LEAD: 'lead' },
    },
    slackClient: { backoffMs: () => 10 },
  });
  running.push(server);
  return server;
}

/** An agent key and the operator `lead` in the store `server` opened. */
async function identitiesOf(server: RunningNovarchServer): Promise<string> {
  const { identities } = server.stores;
  await identities.createOperatorToken({
    name: 'lead',
    role: 'operator',
    grants: [{ tenantId: 'acme' }],
    groups: ['support-leads'],
  });
  return (await identities.createAgentKey({ tenantId: 'acme', name: 'cs-bot' })).secret;
}

/** A refund of 900 held on `server` (TEAM-2), and the ts of its one Slack message. */
async function heldRefund(server: RunningNovarchServer, agent: string, slack: FakeSlackApi) {
  const secrets = new SessionSecrets();
  const call = async (route: string, body: unknown) => {
    const response = await fetch(`${server.url}${route}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agent}`,
        'content-type': 'application/json',
        ...secrets.headersFor(route),
      },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    secrets.learn(json);
    return json;
  };
  const session = (await call('/v1/sessions', { teamId: 'cs-ops', agentId: 'cs-bot' })).id as string;
  await call(`/v1/sessions/${session}/evidence`, lookupEvidence('C1'));
  const decided = await call(`/v1/sessions/${session}/actions`, refundProposal('C1', 900));
  const holdId = (decided.hold as { id: string }).id;
  const posts = () =>
    slack.callsOf('chat.postMessage').filter((entry) => JSON.stringify(entry.body).includes(holdId));
  const post = await waitUntil(() => posts().find((entry) => entry.answer?.ok === true), {
    timeoutMs: 10_000,
    what: 'the hold to be posted',
  });
  const ts = String(post.answer?.ts);
  return { holdId, ts, posts };
}

const updatesOf = (slack: FakeSlackApi, ts: string) =>
  slack.callsOf('chat.update').filter((entry) => entry.body.ts === ts);

async function idle(...servers: RunningNovarchServer[]): Promise<void> {
  for (const server of servers) {
    await server.cluster?.relay.catchUp();
    await server.slack?.whenIdle();
  }
}

describe('Slack messages shared through the store', () => {
  it('SQLite: a hold posted before a restart is updated once by the restarted server', async () => {
    const slack = await startFakeSlackApi();
    const directory = mkdtempSync(path.join(tmpdir(), 'novarch-slack-restart-'));
    cleanups.push(
      () => slack.close(),
      () => rmSync(directory, { recursive: true, force: true }),
    );
    const storeUrl = `sqlite:${path.join(directory, 'novarch.db')}`;
    const first = await startServer(storeUrl, slack);
    const agent = await identitiesOf(first);
    const { holdId, ts } = await heldRefund(first, agent, slack);
    await idle(first);
    await first.close();
    running.splice(running.indexOf(first), 1);
    const restarted = await startServer(storeUrl, slack);
    await slack.sendInteraction(`${restarted.url}/slack/interactions`, {
      userId: 'U0LEAD',
      actionId: 'novarch_approve',
      value: holdId,
      channel: CHANNEL,
      messageTs: ts,
    });
    await waitUntil(() => updatesOf(slack, ts).length > 0, { timeoutMs: 10_000, what: 'the message update' });
    await idle(restarted);
    expect(updatesOf(slack, ts)).toHaveLength(1);
    expect(JSON.stringify(updatesOf(slack, ts)[0]?.body.blocks)).toContain('*Approved* by lead');
  });

  it('PostgreSQL: two servers post a hold once; decided on the other server, its message is updated once', async () => {
    const slack = await startFakeSlackApi();
    cleanups.push(() => slack.close());
    const url = await postgres.freshDatabase();
    const a = await startServer(url, slack);
    const b = await startServer(url, slack);
    const agent = await identitiesOf(a);
    const { holdId, ts, posts } = await heldRefund(a, agent, slack);
    await idle(a, b);
    expect(posts()).toHaveLength(1);
    await slack.sendInteraction(`${b.url}/slack/interactions`, {
      userId: 'U0LEAD',
      actionId: 'novarch_approve',
      value: holdId,
      channel: CHANNEL,
      messageTs: ts,
    });
    await waitUntil(() => updatesOf(slack, ts).length > 0, { timeoutMs: 10_000, what: 'the message update' });
    await idle(a, b, a, b);
    expect(updatesOf(slack, ts)).toHaveLength(1);
    expect(JSON.stringify(updatesOf(slack, ts)[0]?.body.blocks)).toContain('*Approved* by lead');
    expect(await a.stores.store.getHold(holdId)).toMatchObject({ status: 'approved', decidedBy: 'lead' });
  });
});
