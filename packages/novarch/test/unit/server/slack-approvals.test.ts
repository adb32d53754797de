import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeSlackApi, startFakeSlackApi, waitUntil } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRulesFile } from '../../../src/rules/load-rules-file.js';
import { type RunningNovarchServer, startNovarchServer } from '../../../src/server/start-novarch-server.js';
import { ConsoleClient } from '../../console-support/console-client.js';
import { SessionSecrets } from '../../server-support/session-secrets.js';
import { lookupEvidence, refundProposal } from './server-fixture.js';

// Interactive approvals in Slack, end to end over loopback: a real `novarch serve` (SQLite) posts
// to a fake Slack Web API, which signs button clicks as Slack does. TEAM-2 holds a refund over 500
// for support-leads or finance (cs-ops's channel); TEAM-3 one over 5000 for two of finance (its
// own channel).

const RULES = fileURLToPath(new URL('../../fixtures/rules/cs-ops-approvals.rules.yaml', import.meta.url));
const TEAM_CHANNEL = 'C0CSOPS';
const FINANCE_CHANNEL = 'C0FINANCE';

describe('Slack approvals', () => {
  let slack: FakeSlackApi;
  let server: RunningNovarchServer;
  let directory: string;
  let agent = '';
  const logged: string[] = [];
  const secrets = new SessionSecrets();

  beforeAll(async () => {
    slack = await startFakeSlackApi();
    directory = mkdtempSync(path.join(tmpdir(), 'novarch-slack-'));
    server = await startNovarchServer({
      storeUrl: `sqlite:${path.join(directory, 'novarch.db')}`,
      host: '127.0.0.1',
      port: 0,
      rules: [await loadRulesFile(RULES)],
      holdWindowSeconds: 120,
      log: (message) => logged.push(message),
      slack: {
        botToken: slack.botToken,
        signingSecret: slack.signingSecret,
        apiUrl: slack.apiUrl,
        teamChannels: { 'cs-ops': TEAM_CHANNEL },
        ruleChannels: { 'TEAM-3': FINANCE_CHANNEL },
        operators: { U0LEAD: 'lead', U0FIN1: 'fin1', U0FIN2: 'fin2', U0GONE: 'nobody-has-this-token' },
      },
      slackClient: { backoffMs: () => 10 },
    });
    const { identities } = server.stores;
    agent = (await identities.createAgentKey({ tenantId: 'acme', name: 'cs-bot' })).secret;
    const acme = [{ tenantId: 'acme' }];
    await identities.createOperatorToken({
      name: 'lead',
      role: 'operator',
      grants: acme,
      groups: ['support-leads'],
    });
    await identities.createOperatorToken({
      name: 'fin1',
      role: 'operator',
      grants: acme,
      groups: ['finance'],
    });
    await identities.createOperatorToken({
      name: 'fin2',
      role: 'operator',
      grants: acme,
      groups: ['finance'],
    });
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await slack.close();
    rmSync(directory, { recursive: true, force: true });
  });

  async function call(method: string, route: string, body?: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(`${server.url}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${agent}`,
        'content-type': 'application/json',
        ...secrets.headersFor(route),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as Record<string, unknown>;
    secrets.learn(json);
    return json;
  }

  /** A held refund of `amount` (summary `summary`), and its Slack message once posted. */
  async function heldRefund(amount: number, summary = 'refund C1') {
    const session = (await call('POST', '/v1/sessions', { teamId: 'cs-ops', agentId: 'cs-bot' }))
      .id as string;
    await call('POST', `/v1/sessions/${session}/evidence`, lookupEvidence('C1'));
    const proposal = refundProposal('C1', amount);
    const decided = await call('POST', `/v1/sessions/${session}/actions`, {
      ...proposal,
      context: { ...proposal.context, summary },
    });
    const holdId = (decided.hold as { id: string }).id;
    const post = await waitUntil(
      () => slack.callsOf('chat.postMessage').find((entry) => JSON.stringify(entry.body).includes(holdId)),
      { timeoutMs: 10_000, what: 'Slack to be called' },
    );
    return { holdId, post };
  }

  const decisionRow = async (holdId: string) => server.stores.store.getHold(holdId);
  const lastReply = () => slack.responses.at(-1)?.body;
  const updatesOf = (ts: string) => slack.callsOf('chat.update').filter((entry) => entry.body.ts === ts);
  const click = (userId: string, holdId: string, ts: string, extra: Record<string, unknown> = {}) =>
    slack.sendInteraction(`${server.url}/slack/interactions`, {
      userId,
      actionId: 'novarch_approve',
      value: holdId,
      channel: TEAM_CHANNEL,
      messageTs: ts,
      ...extra,
    });

  it('posts a held write to its team channel: the action, the why, escaped text, Approve and Deny', async () => {
    const { holdId, post } = await heldRefund(900, 'refund <!channel> & <https://evil.example|click>');
    expect(post.authorization).toBe(`Bearer ${slack.botToken}`);
    expect(post.contentType).toBe('application/json; charset=utf-8');
    expect(post.body.channel).toBe(TEAM_CHANNEL);
    const blocks = JSON.stringify(post.body.blocks);
    expect(blocks).toContain('refund &lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;');
    expect(blocks).not.toContain('<!channel>');
    expect(blocks).toContain('*Held by:* TEAM-2');
    expect(blocks).toContain('*Tool:* mcp__cs__issue_refund');
    const actions = (
      post.body.blocks as { type: string; elements?: { action_id: string; value: string }[] }[]
    ).find((block) => block.type === 'actions');
    expect(actions?.elements?.map((button) => [button.action_id, button.value])).toEqual([
      ['novarch_approve', holdId],
      ['novarch_deny', holdId],
    ]);
    expect(String(post.body.text)).toContain(`Novarch hold ${holdId}`);
  });

  it('a signed approve from a mapped user decides the hold through the operations path and updates the message', async () => {
    const { holdId } = await heldRefund(900);
    const ts = await waitForTs(holdId);
    const answer = await click('U0LEAD', holdId, ts);
    expect(answer).toEqual({ status: 200, text: '' });
    expect(await decisionRow(holdId)).toMatchObject({
      status: 'approved',
      decidedBy: 'lead',
      rationale: 'decided via slack by lead',
    });
    await waitUntil(() => lastReply()?.text === `Hold ${holdId} approved by lead.`, {
      timeoutMs: 10_000,
      what: 'Slack to be called',
    });
    expect(lastReply()).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    const update = await waitUntil(() => updatesOf(ts).at(-1), {
      timeoutMs: 10_000,
      what: 'Slack to be called',
    });
    const blocks = JSON.stringify(update.body.blocks);
    expect(blocks).toContain(':white_check_mark: *Approved* by lead: decided via slack by lead');
    expect(blocks).not.toContain('novarch_approve');
  });

  it('refuses a bad signature and a stale timestamp with the exact reply, and an unknown user ephemerally', async () => {
    const { holdId } = await heldRefund(900);
    const ts = await waitForTs(holdId);
    expect(await click('U0LEAD', holdId, ts, { signingSecret: 'f'.repeat(32) })).toEqual({
      status: 401,
      text: "Refused: the X-Slack-Signature does not match the body signed with the app's signing secret: check $NOVARCH_SLACK_SIGNING_SECRET (the app's Basic Information page).",
    });
    const stale = Math.floor(Date.now() / 1000) - 301;
    const old = await click('U0LEAD', holdId, ts, { timestamp: stale });
    expect(old.status).toBe(401);
    expect(old.text).toMatch(
      /^Refused: the request was signed 30[12] s ago, more than 300 s: refused as a possible replay \(check this server's clock if Slack sent it just now\)\.$/,
    );
    const unsigned = await fetch(`${server.url}/slack/interactions`, {
      method: 'POST',
      body: 'payload=%7B%7D',
    });
    expect(await unsigned.text()).toBe(
      'Refused: the request has no X-Slack-Signature or X-Slack-Request-Timestamp header: it was not sent by Slack.',
    );
    const replies = slack.responses.length;
    expect(await click('U0STRANGER', holdId, ts)).toEqual({ status: 200, text: '' });
    await waitUntil(() => slack.responses.length > replies, {
      timeoutMs: 10_000,
      what: 'Slack to be called',
    });
    expect(lastReply()).toEqual({
      response_type: 'ephemeral',
      replace_original: false,
      text: 'Slack user U0STRANGER is not mapped to a Novarch operator: an admin adds it under server.slack.operators in novarch.yaml. Nothing was changed.',
    });
    await click('U0GONE', holdId, ts);
    await waitUntil(() => slack.responses.length > replies + 1, {
      timeoutMs: 10_000,
      what: 'Slack to be called',
    });
    expect(lastReply()?.text).toBe(
      'Slack user U0GONE is mapped to operator nobody-has-this-token, who has no active operator token: an admin creates one with novarch operators create --name nobody-has-this-token. Nothing was changed.',
    );
    // The group rule holds too: fin-less lead is fine for TEAM-2, but the hold is still pending.
    expect((await decisionRow(holdId))?.status).toBe('pending');
  });

  it('a quorum needs two Slack users of finance: the first approval is recorded, the same one again refused', async () => {
    const { holdId, post } = await heldRefund(6000);
    expect(post.body.channel).toBe(FINANCE_CHANNEL);
    const ts = await waitForTs(holdId);
    const replies = slack.responses.length;
    await click('U0FIN1', holdId, ts);
    await waitUntil(() => slack.responses.length > replies, {
      timeoutMs: 10_000,
      what: 'Slack to be called',
    });
    expect(lastReply()?.text).toBe(
      `Your approval of hold ${holdId} is recorded: 1 of 2 approvals (fin1); needs 1 more.`,
    );
    expect(await decisionRow(holdId)).toMatchObject({ status: 'pending', approvals: [{ operator: 'fin1' }] });
    const partial = await waitUntil(() => updatesOf(ts).at(-1), {
      timeoutMs: 10_000,
      what: 'Slack to be called',
    });
    expect(JSON.stringify(partial.body.blocks)).toContain('*Approvals:* 1 of 2 (fin1)');
    expect(JSON.stringify(partial.body.blocks)).toContain('novarch_approve');
    await click('U0FIN1', holdId, ts);
    await waitUntil(() => slack.responses.length > replies + 1, {
      timeoutMs: 10_000,
      what: 'Slack to be called',
    });
    expect(lastReply()?.text).toBe(
      `Operator fin1 already approved hold ${holdId} (1 of 2 approvals): each approval must come from a different operator. Nothing was changed.`,
    );
    await click('U0LEAD', holdId, ts);
    await waitUntil(() => slack.responses.length > replies + 2, {
      timeoutMs: 10_000,
      what: 'Slack to be called',
    });
    expect(lastReply()?.text).toContain('rule TEAM-3 needs an approver in group finance');
    await click('U0FIN2', holdId, ts);
    await waitUntil(() => lastReply()?.text === `Hold ${holdId} approved by fin2.`, {
      timeoutMs: 10_000,
      what: 'Slack to be called',
    });
    expect(await decisionRow(holdId)).toMatchObject({ status: 'approved', decidedBy: 'fin2' });
    await waitUntil(() => JSON.stringify(updatesOf(ts).at(-1)?.body.blocks).includes('*Approved* by fin2'), {
      timeoutMs: 10_000,
      what: 'the message to show the approval',
    });
  });

  it('a hold decided on the console updates its Slack message', async () => {
    const { holdId } = await heldRefund(900);
    const ts = await waitForTs(holdId);
    const token = (
      await server.stores.identities.createOperatorToken({
        name: 'console-lead',
        role: 'operator',
        grants: [{ tenantId: 'acme' }],
        groups: ['support-leads'],
      })
    ).secret;
    const operator = new ConsoleClient(server.app);
    await operator.signIn(token);
    await operator.get(`/console/holds/${holdId}`);
    const denied = await operator.post(`/console/holds/${holdId}/decision`, {
      decision: 'deny',
      rationale: 'not <this> one',
    });
    expect(denied.status).toBe(303);
    const update = await waitUntil(() => updatesOf(ts).at(-1), {
      timeoutMs: 10_000,
      what: 'Slack to be called',
    });
    const blocks = JSON.stringify(update.body.blocks);
    expect(blocks).toContain(':no_entry: *Denied* by console-lead: not &lt;this&gt; one');
    expect(blocks).not.toContain('novarch_deny');
  });

  it('waits out a 429 Retry-After and posts once; a Slack error is logged without the token', async () => {
    slack.failNext('chat.postMessage', { rateLimited: 1 });
    const before = slack.callsOf('chat.postMessage').length;
    const { holdId } = await heldRefund(900);
    await waitForTs(holdId);
    const posts = slack.callsOf('chat.postMessage').slice(before);
    expect(posts.map((entry) => [entry.status, entry.answer?.ok])).toEqual([
      [429, false],
      [200, true],
    ]);
    expect(posts[1]?.body).toEqual(posts[0]?.body);
    slack.failNext('chat.postMessage', { error: 'channel_not_found' });
    const session = (await call('POST', '/v1/sessions', { teamId: 'cs-ops', agentId: 'cs-bot' }))
      .id as string;
    await call('POST', `/v1/sessions/${session}/evidence`, lookupEvidence('C1'));
    const decided = await call('POST', `/v1/sessions/${session}/actions`, refundProposal('C1', 900));
    const lost = (decided.hold as { id: string }).id;
    await waitUntil(() => logged.some((line) => line.includes(lost)), {
      timeoutMs: 10_000,
      what: 'Slack to be called',
    });
    expect(logged.find((line) => line.includes(lost))).toBe(
      `novarch serve: Slack: hold ${lost} was not posted to ${TEAM_CHANNEL}: Slack chat.postMessage failed: channel_not_found`,
    );
    expect(logged.join('\n')).not.toContain(slack.botToken);
  });

  /** The `ts` Slack answered for the hold's message. */
  async function waitForTs(holdId: string): Promise<string> {
    const post = await waitUntil(
      () =>
        slack
          .callsOf('chat.postMessage')
          .find((entry) => entry.answer?.ok === true && JSON.stringify(entry.body).includes(holdId)),
      { timeoutMs: 10_000, what: 'Slack to be called' },
    );
    return String(post.answer?.ts);
  }
});
