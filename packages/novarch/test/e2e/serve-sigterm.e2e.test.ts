import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeAnthropic, toolUse } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentOverHttp } from './support/agent-over-http.js';
import { JUDGED_WRITE_RULES } from './support/judged-write-rules.js';
import { type NovarchServerProcess, startServerProcess } from './support/novarch-server-process.js';
import { createSecret, runNovarch } from './support/run-novarch-cli.js';

// SIGTERM reaches `novarch serve` while a write is being judged (an LLM judge that takes 2 s):
// no decision is lost. The write in flight is answered and stored; a write sent after the signal
// is refused (503) and stored nowhere; an agent long-polling a hold is answered at once. A new
// server on the same store finds every decision the old one answered.

let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
let config = '';
let agentKey = '';
let operatorToken = '';
const servers: NovarchServerProcess[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
  const directory = mkdtempSync(path.join(tmpdir(), 'novarch-sigterm-'));
  writeFileSync(path.join(directory, 'rules.yaml'), JUDGED_WRITE_RULES);
  config = path.join(directory, 'novarch.yaml');
  writeFileSync(
    config,
    'hold_window_seconds: 60\njudge: { provider: anthropic }\nrules: [rules.yaml]\nserver:\n  store_url: sqlite:./server.db\n',
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
});
afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await fake.close();
});

async function startServer(): Promise<NovarchServerProcess> {
  const server = await startServerProcess(['--config', config], {
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: 'sk-ant-test-judge',
  });
  servers.push(server);
  return server;
}

const DecisionSchema = z.object({
  action: z.object({ id: z.string() }),
  verdict: z.object({ kind: z.string() }),
  release: z.object({ released: z.boolean() }).optional(),
});

describe('novarch serve and SIGTERM with a decision in flight', () => {
  it('the write being judged is answered and stored; later writes get 503 and are not stored; long-polls answer at once', async () => {
    const server = await startServer();
    const agent = agentOverHttp(server.url, agentKey);

    // An agent waits on a hold (a long-poll of up to 60 s).
    const holdSession = await agent.openSession('credit-bot');
    const credit = await agent.call('POST', `/v1/sessions/${holdSession}/actions`, {
      actionType: 'issue_credit',
      toolName: 'mcp__cs__issue_credit',
      input: { customer_id: 'C1', amount: 900 },
      context: { recordId: 'C1', summary: 'credit C1', amount: 900 },
    });
    const holdId = z.object({ hold: z.object({ id: z.string() }) }).parse(credit.body).hold.id;
    const longPoll = agent.call('POST', `/v1/holds/${holdId}/wait`, { timeoutMs: 60_000 });

    // A refund is being judged by the (slow) LLM judge when SIGTERM arrives.
    fake.script(
      toolUse(
        'submit_rule_verdicts',
        { verdicts: [{ rule_id: 'LLM-1', violated: false, rationale: 'the customer is in good standing' }] },
        { delayMs: 2_000 },
      ),
    );
    const sessionId = await agent.openSession();
    const judged = agent.refund(sessionId, 'C2', 120, { release: true });
    const deadline = Date.now() + 30_000;
    while (fake.requests.length < 1) {
      if (Date.now() > deadline) throw new Error('the judge was never asked');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The signal arrived: a write sent now is refused and stored nowhere.
    const late = await agent.refund(sessionId, 'C3', 50, { release: true });
    expect(late).toEqual({
      status: 503,
      body: {
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        detail: 'the server is shutting down',
      },
    });
    // The long-poll answered at once with the hold as it is (its agent then finds no server and refuses).
    expect(await longPoll).toMatchObject({ status: 200, body: { id: holdId, status: 'pending' } });

    // The write in flight got its verdict, stored and released, before the server stopped.
    const answer = await judged;
    expect(answer.status).toBe(200);
    const decision = DecisionSchema.parse(answer.body);
    expect(decision).toMatchObject({ verdict: { kind: 'pass' }, release: { released: true } });
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('novarch serve: SIGTERM: shutting down (finishing requests in flight)');
    expect(server.output()).toContain('novarch serve: stopped; the store is closed');
    fake.assertComplete();

    // A new server on the same store: the decision answered before the stop is there, and nothing else.
    const next = await startServer();
    const audit = await runNovarch(['audit', '--session', sessionId, '--json', '--server', next.url], {
      NOVARCH_TOKEN: operatorToken,
    });
    expect(audit.code, audit.stderr).toBe(0);
    const entries = JSON.parse(audit.stdout);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: { id: decision.action.id, releasedAt: expect.any(String) },
      verdict: { source: 'judge', verdict: { kind: 'pass', citations: { ruleIds: ['LLM-1'] } } },
    });
    expect(entries[0].action.context).toMatchObject({ recordId: 'C2' });
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });
});
