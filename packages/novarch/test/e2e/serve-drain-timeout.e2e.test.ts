import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeAnthropic, toolUse, waitUntil } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openSqliteStore } from '../../src/store/open-sqlite-store.js';
import { agentOverHttp } from './support/agent-over-http.js';
import { JUDGED_WRITE_RULES } from './support/judged-write-rules.js';
import { type NovarchServerProcess, startServerProcess } from './support/novarch-server-process.js';
import { createSecret } from './support/run-novarch-cli.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

// SIGTERM reaches `novarch serve --drain-timeout 1` while an LLM judge is still deciding a write,
// and the judge takes longer than the drain timeout. The write must end refused, consistently:
// its agent is answered 503 with the reason, the store (read back after the process exited)
// holds a refusal with that reason and no pass, and the write was never released, even when the
// judge's pass arrives later while the process still runs (here: waiting for a webhook in flight,
// which before this fix let the late pass be stored and released after its agent was refused).

const REASON = 'the server shut down before the judgement finished: the write was refused and did not run';
const SECRET = 'whsec-acme-0123456789abcdef';
const PASS = {
  verdicts: [{ rule_id: 'LLM-1', violated: false, rationale: 'the customer is in good standing' }],
};

let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
let receiver: WebhookReceiver;
let directory = '';
let config = '';
let agentKey = '';
const servers: NovarchServerProcess[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
  receiver = await startWebhookReceiver();
  directory = mkdtempSync(path.join(tmpdir(), 'novarch-drain-'));
  writeFileSync(path.join(directory, 'rules.yaml'), JUDGED_WRITE_RULES);
  config = path.join(directory, 'novarch.yaml');
  writeFileSync(
    config,
    [
      'hold_window_seconds: 60',
      'judge: { provider: anthropic }',
      'rules: [rules.yaml]',
      'server:',
      '  store_url: sqlite:./server.db',
      '  drain_timeout_seconds: 1',
      '',
    ].join('\n'),
  );
  agentKey = await createSecret([
    'keys',
    'create',
    '--config',
    config,
    '--tenant',
    'acme',
    '--name',
    'cs-bot',
  ]);
});
afterEach(() => {
  for (const server of servers.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL');
});
afterAll(async () => {
  await receiver?.close();
  await fake?.close();
});

async function startServer(args: string[] = [], env: Record<string, string> = {}) {
  const server = await startServerProcess(['--config', config, ...args], {
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: 'sk-ant-test-judge',
    ...env,
  });
  servers.push(server);
  return server;
}

/** Proposes a refund (released at once on a pass) and resolves once the judge was asked. */
async function refundBeingJudged(server: NovarchServerProcess) {
  const agent = agentOverHttp(server.url, agentKey);
  const sessionId = await agent.openSession();
  const asked = fake.requests.length;
  const answer = agent.refund(sessionId, 'C2', 120, { release: true });
  const deadline = Date.now() + 30_000;
  while (fake.requests.length <= asked) {
    if (Date.now() > deadline) throw new Error('the judge was never asked');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { sessionId, answer, askedAt: Date.now() };
}

/** The session's audit trail, read from the store file after the server exited. */
async function storedDecisions(sessionId: string) {
  const store = await openSqliteStore(path.join(directory, 'server.db'));
  try {
    return (await store.audit({ sessionId })).map((entry) => ({
      actionType: entry.action.actionType,
      released: entry.action.releasedAt !== undefined,
      verdicts: entry.verdicts.map((verdict) => ({
        kind: verdict.verdict.kind,
        source: verdict.source,
        rationale: verdict.verdict.citations.rationale,
      })),
    }));
  } finally {
    await store.close();
  }
}

const REFUSED_503 = {
  status: 503,
  body: {
    type: 'about:blank',
    title: 'Service Unavailable',
    status: 503,
    detail: REASON,
    // The refused action, and that its refusal is stored: a client records no second one.
    actionId: expect.stringMatching(/^act_/),
    refusalRecorded: true,
  },
};
const STORED_REFUSAL = [
  {
    actionType: 'issue_refund',
    released: false,
    verdicts: [{ kind: 'kill', source: 'gate', rationale: REASON }],
  },
];

describe('novarch serve: a judgement that outlasts the drain timeout', () => {
  it('a judge that never answers: the write is answered 503 and stored as refused, and the process exits at once', async () => {
    const server = await startServer();
    fake.script(toolUse('submit_rule_verdicts', PASS, { delayMs: 600_000 }));
    const { sessionId, answer } = await refundBeingJudged(server);
    const signalled = Date.now();
    server.child.kill('SIGTERM');

    expect(await answer).toEqual(REFUSED_503);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(900);
    // Not at the end of the judge's own budget (30 s): its request is dropped once the server stopped.
    await waitUntil(() => server.child.exitCode !== null, {
      timeoutMs: 20_000,
      what: "the server to exit before the judge's 30 s budget ends",
    });
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain(
      `novarch serve: 1 write(s) still being judged when the drain timeout (1 s) passed: stored as refused ("${REASON}") and answered 503`,
    );
    expect(server.output()).toContain('novarch serve: stopped; the store is closed');
    expect(await storedDecisions(sessionId)).toEqual(STORED_REFUSAL);
    fake.assertComplete();
  });

  it('a judge that passes after the drain timeout, while the server still runs: its pass is never stored nor released', async () => {
    // The server waits on SIGTERM for a webhook in flight, so it is still running when the late
    // pass arrives. The webhook is declared in novarch.yaml, the drain timeout given as a flag.
    const webhookConfig = path.join(directory, 'novarch-webhooks.yaml');
    writeFileSync(
      webhookConfig,
      [
        'hold_window_seconds: 60',
        'judge: { provider: anthropic }',
        'rules: [rules.yaml]',
        'server:',
        '  store_url: sqlite:./server.db',
        '  tenants:',
        '    acme:',
        '      webhook:',
        `        url: ${receiver.url}/hooks/acme`,
        '',
      ].join('\n'),
    );
    let releaseWebhook = () => {};
    const webhookHeld = new Promise<void>((resolve) => {
      releaseWebhook = resolve;
    });
    receiver.answer({ status: 200, waitFor: webhookHeld });
    const server = await startServer(['--config', webhookConfig, '--drain-timeout', '1'], {
      NOVARCH_WEBHOOK_SECRET_ACME: SECRET,
    });
    expect(server.output()).toContain(`webhooks for acme (from server.tenants in ${webhookConfig})`);
    const agent = agentOverHttp(server.url, agentKey);
    const holdSession = await agent.openSession('credit-bot');
    const credit = await agent.call('POST', `/v1/sessions/${holdSession}/actions`, {
      actionType: 'issue_credit',
      toolName: 'mcp__cs__issue_credit',
      input: { customer_id: 'C1', amount: 900 },
      context: { recordId: 'C1', summary: 'credit C1', amount: 900 },
    });
    expect(z.object({ verdict: z.object({ kind: z.literal('hold') }) }).parse(credit.body)).toBeTruthy();
    await receiver.waitForRequests(1);

    fake.script(toolUse('submit_rule_verdicts', PASS, { delayMs: 4_000 }));
    const { sessionId, answer, askedAt } = await refundBeingJudged(server);
    server.child.kill('SIGTERM');
    expect(await answer).toEqual(REFUSED_503);

    // The judge's pass arrives (4 s after it was asked, 3 s after the cut) while the server still
    // waits for the webhook (whose own timeout is 10 s).
    while (Date.now() < askedAt + 5_000) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.child.exitCode).toBe(null);
    releaseWebhook();
    expect(await server.exited).toBe(0);
    fake.assertComplete();

    expect(await storedDecisions(sessionId)).toEqual(STORED_REFUSAL);
  });
});
