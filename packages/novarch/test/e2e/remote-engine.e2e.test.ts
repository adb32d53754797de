import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { reply, startFakeAnthropic, waitUntil } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { remoteEngine } from '../../src/remote/remote-engine.js';
import {
  createGateWorld,
  type GateWorld,
  lookup,
  RULES_FILE,
  refund,
  toolResultsSeen,
} from './support/gate-fixture.js';
import { type NovarchServerProcess, startServerProcess } from './support/novarch-server-process.js';
import { createSecret, runNovarch } from './support/run-novarch-cli.js';

// An agent in this process, governed through the real SDK and CLI by a `novarch serve` in another
// process; the operator decides through the server with the operator CLI's --server mode.

let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
let world: GateWorld;
let server: NovarchServerProcess;
let agentKey = '';
let operatorToken = '';

beforeAll(async () => {
  fake = await startFakeAnthropic();
  world = await createGateWorld();
  const config = path.join(world.directory, 'novarch.yaml');
  writeFileSync(
    config,
    `hold_window_seconds: 30\nrules: [${JSON.stringify(RULES_FILE)}]\nserver:\n  store_url: sqlite:./server.db\n  tenants:\n    acme: {}\n`,
  );
  const store = ['--config', config];
  agentKey = await createSecret(['keys', 'create', ...store, '--tenant', 'acme', '--name', 'cs-bot']);
  operatorToken = await createSecret(['operators', 'create', ...store, '--name', 'ana', '--grant', 'acme']);
  server = await startServerProcess(store);
});
afterEach(() => {
  try {
    fake.assertComplete();
  } finally {
    fake.reset();
  }
});
afterAll(async () => {
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await world.close();
  await fake.close();
});

const operator = (args: string[]) =>
  runNovarch([...args, '--server', server.url], { NOVARCH_TOKEN: operatorToken });

function firstPendingHold(): Promise<string> {
  return waitUntil(
    async () => {
      const listed = await operator(['holds', 'list', '--status', 'waiting', '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      const holds: { hold: { id: string } }[] = JSON.parse(listed.stdout);
      return holds[0]?.hold.id;
    },
    { timeoutMs: 60_000, what: 'a hold to appear on the server', intervalMs: 200 },
  );
}

describe('remoteEngine through the real CLI, against novarch serve in another process', () => {
  it('judge pass: the write runs after a lookup, judged and stored by the server', async () => {
    const engine = remoteEngine({ url: server.url, apiKey: agentKey });
    const remote = await createGateWorld(5, { directory: world.directory, engine });
    fake.script(lookup('C1', 'l1'), refund('C1', 120, 'r1'), reply('done'));
    const gate = await remote.run(fake.url);
    await remote.close();
    expect(remote.refunds).toEqual([{ customer_id: 'C1', amount: 120 }]);
    expect(gate.killed).toBe(false);
    const audit = await operator(['audit', '--json']);
    expect(audit.code, audit.stderr).toBe(0);
    expect(JSON.parse(audit.stdout)).toMatchObject([
      {
        session: { tenantId: 'acme', agentId: 'cs-bot' },
        action: { toolName: 'mcp__cs__issue_refund', releasedAt: expect.any(String) },
        verdict: { source: 'judge', verdict: { kind: 'pass', citations: { ruleIds: ['TEAM-1', 'TEAM-2'] } } },
      },
    ]);
  });

  it('a hold approved by an operator over HTTP while the agent waits: the write runs, decided as the token', async () => {
    const engine = remoteEngine({ url: server.url, apiKey: agentKey });
    const remote = await createGateWorld(5, { directory: world.directory, engine });
    fake.script(lookup('C3', 'l1'), refund('C3', 900, 'r1'), reply('done'));
    const decided = (async () => {
      const holdId = await firstPendingHold();
      // The token decides: a name given with --operator is refused, not ignored.
      const named = await operator(['holds', 'approve', holdId, '--operator', 'mallory']);
      expect(named).toMatchObject({ code: 2 });
      expect(named.stderr).toContain('--operator has no effect with --server');
      return operator(['holds', 'approve', holdId, '--rationale', 'checked with finance']);
    })();
    const gate = await remote.run(fake.url);
    await remote.close();
    const approval = await decided;
    expect(approval.code, approval.stderr).toBe(0);
    expect(remote.refunds).toEqual([{ customer_id: 'C3', amount: 900 }]);
    expect(gate.killed).toBe(false);
    const holds = await operator(['holds', 'list', '--json']);
    expect(JSON.parse(holds.stdout)).toMatchObject([
      { hold: { status: 'approved', decidedBy: 'ana', rationale: 'checked with finance' } },
    ]);
    // An agent key cannot decide: the operator CLI with the agent's key gets the server's 403.
    const asAgent = await runNovarch(['holds', 'list', '--server', server.url], {
      NOVARCH_TOKEN: 'nva_000000000000_x',
    });
    expect(asAgent.code).toBe(2);
  });

  it("an operator kill over HTTP latches the session on the server (the agent's engine sees it)", async () => {
    const engine = remoteEngine({ url: server.url, apiKey: agentKey });
    const remote = await createGateWorld(5, { directory: world.directory, engine });
    fake.script(lookup('C5', 'l1'), lookup('C5', 'l2'), reply('stopped'));
    let sessionId = '';
    const gate = await remote.run(fake.url, {
      onGate: (opened) => {
        sessionId = opened.sessionId;
      },
    });
    await remote.close();
    expect(gate.killed).toBe(false);
    const killed = await operator(['sessions', 'kill', sessionId, '--reason', 'runaway']);
    expect(killed.code, killed.stderr).toBe(0);
    expect(await engine.isKilled(sessionId)).toMatchObject({ killReason: 'operator ana: runaway' });
  });

  it('the server killed: every call is refused with the reason, the write never runs (fail-closed)', async () => {
    const engine = remoteEngine({ url: server.url, apiKey: agentKey, retries: 1 });
    const remote = await createGateWorld(5, { directory: world.directory, engine });
    fake.script(lookup('C4', 'l1'), refund('C4', 100, 'r1'), reply('gave up'));
    const gate = await remote.run(fake.url, { onGate: () => server.child.kill('SIGKILL') });
    await remote.close();
    expect(await server.exited).toBe(null);
    expect(remote.refunds).toEqual([]);
    const refused = toolResultsSeen(fake, 2).r1;
    expect(refused?.isError).toBe(true);
    expect(refused?.text).toMatch(
      new RegExp(
        `the gate failed \\(the Novarch server at ${server.url.replace(/\./g, '\\.')} failed .+: unreachable \\(ECONNREFUSED\\)\\); refused to be safe`,
      ),
    );
    expect(toolResultsSeen(fake, 1).l1?.isError).toBe(true);
    expect(gate.killed).toBe(false);
  });
});
