import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, startFakeAnthropic, waitUntil } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type NovarchStore, openSqliteStore } from '../../src/index.js';
import { WAITER_STALE_AFTER_VARIABLE } from '../../src/model/waiter-timing.js';
import { lookup, refund, toolResultsSeen } from './support/gate-fixture.js';
import { groupGone, killProcessGroup, processGroupMembers } from './support/process-group.js';
import { runNovarch } from './support/run-novarch-cli.js';
import { type StoreChild, spawnScriptChild } from './support/spawn-store-child.js';

// An agent process (its own Node process, running one governed query through the real CLI) is
// SIGKILLed, with its CLI, while a write waits on a hold. The store keeps the whole audit; a restarted
// agent works on the same file; the orphaned hold is listed as abandoned once its agent's check-ins
// stop, and the operator CLI refuses to approve it (nothing would run the write).

const AGENT_SCRIPT = fileURLToPath(new URL('./support/gate-agent-child.ts', import.meta.url));
/** Long enough that the first agent really is waiting on its hold when it is killed. */
const HOLD_WINDOW_S = 120;
const WAIT_MS = 60_000;
/** The operator CLI's stale time (the default is 10 s): the orphaned hold is abandoned soon after the kill. */
const STALE_MS = 300;

let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
const directories: string[] = [];
const agents: StoreChild[] = [];
const stores: NovarchStore[] = [];
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  try {
    // Only does something when a test failed before its agents were gone.
    for (const agent of agents.splice(0)) {
      if (agent.process.pid !== undefined) await killProcessGroup(agent.process.pid);
    }
    for (const store of stores.splice(0)) await store.close();
  } finally {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
    try {
      fake.assertComplete();
    } finally {
      fake.reset();
    }
  }
});
afterAll(() => fake.close());

/** What the model saw as the result of each tool call, by call id. */
const seen = (index: number) => toolResultsSeen(fake, index);

/** An agent process on the store in `directory`, leading its own process group (it and its CLI). */
function startAgent(directory: string, refundsFile: string): StoreChild & { pid: number } {
  const agent = spawnScriptChild(AGENT_SCRIPT, [directory, fake.url, String(HOLD_WINDOW_S), refundsFile], {
    detached: true,
  });
  agents.push(agent);
  const { pid } = agent.process;
  if (pid === undefined) throw new Error('the agent process did not start');
  return Object.assign(agent, { pid });
}

async function openStore(file: string): Promise<NovarchStore> {
  const store = await openSqliteStore(file);
  stores.push(store);
  return store;
}

/** Polls `probe` until it gives a value; fails early when the agent exits, or at the deadline. */
function eventually<T>(what: string, agent: StoreChild, probe: () => Promise<T | undefined>): Promise<T> {
  const polled = new AbortController();
  const exitedFirst = agent.exited.then((exit) => {
    if (polled.signal.aborted) return new Promise<never>(() => {});
    throw new Error(`the agent exited (${exit.code ?? exit.signal}) before ${what}:\n${exit.stderr}`);
  });
  const found = waitUntil(probe, { timeoutMs: WAIT_MS, what, intervalMs: 50 }).finally(() => polled.abort());
  return Promise.race([found, exitedFirst]);
}

const refundLine = z.object({ customer_id: z.string(), amount: z.number() });
/** The refunds that really executed, in any process. */
function executedRefunds(file: string) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => refundLine.parse(JSON.parse(line)));
}

const doneLine = z.object({ killed: z.boolean(), refunds: z.array(refundLine) });
const listedHolds = z.array(z.object({ hold: z.object({ id: z.string() }), state: z.string().optional() }));

describe('NovarchHookGate across a process restart (real CLI)', () => {
  it('a process killed mid-hold, then restarted, with the audit intact', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'novarch-gate-restart-'));
    directories.push(directory);
    const storeFile = path.join(directory, 'novarch.db');
    const refundsFile = path.join(directory, 'refunds.jsonl');
    writeFileSync(refundsFile, '');

    // 1. The agent process looks C9 up, then asks for a refund of 900, which TEAM-2 holds.
    fake.script(lookup('C9', 'l1'), refund('C9', 900, 'r1'));
    const first = startAgent(directory, refundsFile);
    await first.next('opened');
    const watcher = await openStore(storeFile);
    // The agent checks in on the hold while it waits: the operator CLI lists it as waiting.
    const pending = await eventually('checked-in pending hold', first, async () => {
      const [hold] = await watcher.listHolds({ status: 'pending' });
      return hold?.waiter === undefined ? undefined : hold;
    });
    expect(pending.waiter).toEqual({ seenAt: expect.any(String), pid: first.pid, host: hostname() });
    const cli = { NOVARCH_STORE: storeFile };
    const whileWaiting = await runNovarch(['holds', 'list', '--json'], cli);
    expect(listedHolds.parse(JSON.parse(whileWaiting.stdout))).toEqual([
      { hold: expect.objectContaining({ id: pending.id }), state: 'waiting' },
    ]);

    // 2. Killed mid-hold, together with its CLI (the grandchild is in the agent's process group).
    expect(processGroupMembers(first.pid).map((member) => member.command)).toContainEqual(
      expect.stringMatching(/(^|\/)claude$/),
    );
    await killProcessGroup(first.pid);
    expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
    expect(processGroupMembers(first.pid)).toEqual([]);
    expect(fake.requests).toHaveLength(2);
    fake.assertComplete();
    fake.reset();

    // 3. Reopened: the whole audit of the killed session is there, and no refund ran. The hold
    // keeps the agent's last check-in (later than, or the one, seen above).
    const store = await openStore(storeFile);
    const orphaned = await store.getHold(pending.id);
    expect(orphaned).toEqual({ ...pending, waiter: { ...pending.waiter, seenAt: expect.any(String) } });
    const lastCheckIn = orphaned?.waiter?.seenAt ?? '';
    expect(lastCheckIn >= (pending.waiter?.seenAt ?? '')).toBe(true);
    const [session, ...otherSessions] = await store.listSessions();
    expect(otherSessions).toEqual([]);
    expect(session).toMatchObject({
      tenantId: 'acme',
      teamId: 'cs-ops',
      agentId: 'cs-bot',
      holdWaitSeconds: HOLD_WINDOW_S,
    });
    expect(session?.killedAt).toBeUndefined();
    const sessionId = session?.id ?? '';
    const [evidence, ...moreEvidence] = await store.listEvidence(sessionId);
    expect(moreEvidence).toEqual([]);
    expect(evidence).toMatchObject({
      sessionId,
      toolName: 'mcp__cs__lookup_customer',
      input: { customer_id: 'C9' },
      isError: false,
    });
    expect(JSON.stringify(evidence?.output)).toContain('customer C9: in good standing');

    const [held, ...moreEntries] = await store.audit();
    expect(moreEntries).toEqual([]);
    expect(held?.session.id).toBe(sessionId);
    expect(held?.action).toMatchObject({
      sessionId,
      actionType: 'issue_refund',
      toolName: 'mcp__cs__issue_refund',
      input: { customer_id: 'C9', amount: 900, reasoning: 'customer asked' },
      context: { recordId: 'C9', summary: 'refund C9', amount: 900 },
      reasoning: 'customer asked',
    });
    expect(held?.verdict).toMatchObject({
      actionId: held?.action.id,
      source: 'judge',
      verdict: {
        kind: 'hold',
        // TEAM-2 (amount <= 500) does not read the evidence, so the hold cites none (see
        // combineRuleOutcomes); the lookup is tied to the action through its session.
        citations: {
          ruleIds: ['TEAM-2'],
          evidenceIds: [],
          rationale: expect.stringContaining('Refunds over 500 are held for a human.'),
        },
      },
    });
    expect(held?.hold).toEqual(orphaned);
    expect(held?.hold).toMatchObject({ actionId: held?.action.id, sessionId, status: 'pending' });
    expect(executedRefunds(refundsFile)).toEqual([]);

    // 4. Restarted: a new agent process on the same file runs a new session, which passes.
    fake.script(lookup('C9', 'l2'), refund('C9', 100, 'r2'), reply('refunded'));
    const second = startAgent(directory, refundsFile);
    expect(doneLine.parse(await second.next('done'))).toEqual({
      killed: false,
      refunds: [{ customer_id: 'C9', amount: 100 }],
    });
    expect(await second.exited).toMatchObject({ code: 0 });
    await groupGone(second.pid); // its CLI (and tsx's esbuild) exit after it
    expect(seen(2).r2?.text).toContain('refunded 100 to C9');
    expect(executedRefunds(refundsFile)).toEqual([{ customer_id: 'C9', amount: 100 }]);

    const entries = await store.audit();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toEqual(held);
    const passed = entries[1];
    expect(passed?.session).toMatchObject({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' });
    expect(passed?.session.id).not.toBe(sessionId);
    expect(passed?.action).toMatchObject({ actionType: 'issue_refund', input: { amount: 100 } });
    expect(passed?.verdict?.verdict).toMatchObject({
      kind: 'pass',
      citations: { ruleIds: ['TEAM-1', 'TEAM-2'] },
    });
    expect(passed?.hold).toBeUndefined();
    expect(await store.listSessions()).toHaveLength(2);
    expect(await store.listHolds({ status: 'pending' })).toEqual([orphaned]);

    // 5. No process waits on the orphaned hold. Once its last check-in is stale, the operator CLI
    // lists it as abandoned and refuses to approve it (exit 3): nothing would run the refund, and
    // the audit would show an approval of a write that never happened. Rather than wait out the
    // default 10 s, the operator's `novarch` processes take a hold as stale after STALE_MS
    // (NOVARCH_WAITER_STALE_AFTER_MS, the knob for tests and operations).
    await waitUntil(() => Date.now() > Date.parse(lastCheckIn) + STALE_MS, {
      timeoutMs: WAIT_MS,
      what: `${STALE_MS} ms past the orphaned hold's last check-in`,
    });
    const later = (args: string[]) =>
      runNovarch(args, {
        NOVARCH_STORE: storeFile,
        USER: 'ana',
        [WAITER_STALE_AFTER_VARIABLE]: String(STALE_MS),
      });
    const listed = await later(['holds', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${pending.id}  pending (abandoned)  ${sessionId}  issue_refund  C9`);
    const listedJson = await later(['holds', 'list', '--status', 'pending', '--json']);
    expect(listedHolds.parse(JSON.parse(listedJson.stdout))).toEqual([
      { hold: expect.objectContaining({ id: pending.id }), state: 'abandoned' },
    ]);
    const approve = await later(['holds', 'approve', pending.id, '--rationale', 'checked ✓']);
    expect(approve).toEqual({
      code: 3,
      stdout: '',
      stderr:
        `error: Hold ${pending.id} is abandoned: no agent process has checked in on it since ${lastCheckIn} ` +
        `(pid ${first.pid} on ${hostname()}).\n` +
        'No agent waits for this decision: the write will not run, whatever you decide. ' +
        'If it is still wanted, the agent must retry the action.\n' +
        'To close the hold anyway, rerun with --force: it is stored as timed_out under your name, ' +
        'and nothing runs.\nNothing was changed.\n',
    });
    expect(await store.getHold(pending.id)).toEqual(orphaned);

    // With --force the operator closes it: stored as timed_out (never approved), and nothing runs.
    const forced = await later(['holds', 'approve', pending.id, '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('Nothing runs this write: no agent was waiting for the decision.');
    expect(await store.getHold(pending.id)).toMatchObject({
      status: 'timed_out',
      decidedBy: 'ana',
      rationale: `Closed with novarch holds approve --force: no agent process had checked in since ${lastCheckIn} (pid ${first.pid} on ${hostname()}), so the write did not run.`,
    });
    expect(processGroupMembers(first.pid)).toEqual([]);
    expect(processGroupMembers(second.pid)).toEqual([]);
    expect(executedRefunds(refundsFile)).toEqual([{ customer_id: 'C9', amount: 100 }]);
    const [closed, last] = await store.audit();
    expect(closed?.hold?.status).toBe('timed_out');
    expect(last).toEqual(passed);
  });
});
