import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type HoldRecord, NovarchEngine, openSqliteStore } from '../../src/index.js';
import { createTempStoreFiles } from '../store/temp-store-file.js';
import { runNovarch as novarch } from './support/run-novarch-cli.js';

// The real `novarch` bin (built dist/) over a real SQLite store written with the library.
// `novarch(args, env)` runs it with NO_COLOR, USER=ana, and the store in `env.NOVARCH_STORE`.

const DEADLINE = new Date('2099-01-01T00:00:00.000Z');
const files = createTempStoreFiles();
const waiters: Waiter[] = [];
afterEach(async () => {
  for (const waiter of waiters.splice(0)) await waiter.stop();
});
afterAll(() => files.cleanup());

/** When the stand-in for a killed agent process last checked in (long enough ago to be stale). */
const LAST_CHECK_IN = '2020-01-01T10:00:40.000Z';

/**
 * Makes a hold look as a killed agent process leaves it: created at 10:00:00, last checked in at
 * 10:00:40 (pid 4242 on agent-7), then nothing. The CLI sees it as abandoned.
 */
function abandon(file: string, holdId: string): void {
  const database = new Database(file);
  try {
    database
      .prepare(
        "update holds set created_at = '2020-01-01T10:00:00.000Z', waiter_seen_at = ?, waiter_pid = 4242, " +
          "waiter_host = 'agent-7' where id = ?",
      )
      .run(LAST_CHECK_IN, holdId);
  } finally {
    database.close();
  }
}

/** An agent waiting on a hold in this process, through the engine (it checks in every 2 s). */
interface Waiter {
  /** Resolves with the hold as the waiting agent sees it decided. */
  decided: Promise<HoldRecord>;
  /** Stops waiting (a hold still pending is then timed out by the engine) and closes its store. */
  stop(): Promise<void>;
}

async function waitOn(file: string, holdId: string): Promise<Waiter> {
  const store = await openSqliteStore(file);
  const engine = new NovarchEngine({ store, rules: [], holdWindowSeconds: 300, pollIntervalMs: 50 });
  const hold = await store.getHold(holdId);
  if (hold === undefined) throw new Error(`no hold ${holdId}`);
  const stopping = new AbortController();
  const decided = engine.awaitHold(hold, stopping.signal);
  const waiter: Waiter = {
    decided,
    async stop() {
      stopping.abort();
      await decided.catch(() => undefined);
      await store.close();
    },
  };
  waiters.push(waiter);
  // The first check-in happens at the first poll.
  while ((await store.getHold(holdId))?.waiter?.pid !== process.pid) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return waiter;
}

/** Two sessions: acme's refund-bot (a held refund, a passed note) and globex's (a held refund, a kill). */
async function buildStore() {
  const file = files.next();
  const store = await openSqliteStore(file);
  const acme = await store.createSession({ tenantId: 'acme', teamId: 'support', agentId: 'refund-bot' }, 300);
  const globex = await store.createSession({ tenantId: 'globex', teamId: 'ops', agentId: 'notes-bot' }, 60);
  const lookup = await store.recordEvidence({
    sessionId: acme.id,
    toolName: 'mcp__crm__lookup_customer',
    input: { customerId: 'c-7' },
    output: { name: 'Ana Lima', charges: [450, 450] },
    isError: false,
    startedAt: '2026-03-01T10:00:00.000Z',
    finishedAt: '2026-03-01T10:00:00.120Z',
  });
  const act = async (sessionId: string, actionType: string, recordId: string, summary: string) =>
    store.recordAction({
      sessionId,
      actionType,
      toolName: `mcp__crm__${actionType}`,
      input: { recordId, reasoning: 'charged twice' },
      context: { recordId, summary },
      reasoning: 'charged twice',
    });
  const judge = async (
    action: { id: string; sessionId: string },
    kind: 'pass' | 'kill' | 'hold',
    rule: string,
  ) =>
    store.recordVerdict({
      actionId: action.id,
      sessionId: action.sessionId,
      verdict: {
        kind,
        citations: { ruleIds: [rule], evidenceIds: [lookup.id], rationale: `${rule} says ${kind}` },
      },
      source: 'judge',
    });
  const refund = await act(acme.id, 'refund', 'c-7', 'Refund 900 € to c-7');
  await judge(refund, 'hold', 'TEAM-2');
  const refundHold = await store.createHold(refund.id, acme.id, DEADLINE);
  await judge(await act(acme.id, 'add_note', 'c-7', 'Note the refund'), 'pass', 'TEAM-1');
  const other = await act(globex.id, 'refund', 'c-9', 'Refund 600 € to c-9');
  await judge(other, 'hold', 'TEAM-2');
  const otherHold = await store.createHold(other.id, globex.id, DEADLINE);
  await judge(await act(globex.id, 'delete_record', 'n-1', 'Delete note n-1'), 'kill', 'TEAM-9');
  await store.close();
  // Both holds start abandoned; a test that needs an agent waiting on one starts it (`waitOn`).
  abandon(file, refundHold.id);
  abandon(file, otherHold.id);
  // Same-length stand-ins for the random ids, so the expected tables below keep their layout.
  const ids = { acme, globex, lookup, refund, refundHold, other, otherHold };
  const stand = (prefix: string, n: number) => `${prefix}_00000000-0000-0000-0000-00000000000${n}`;
  const standIns = new Map([
    [acme.id, stand('ses', 1)],
    [globex.id, stand('ses', 2)],
    [lookup.id, stand('evd', 1)],
    [refund.id, stand('act', 1)],
    [refundHold.id, stand('hold', 1)],
    [otherHold.id, stand('hold', 2)],
  ]);
  const mask = (text: string) => {
    let masked = text;
    for (const [id, standIn] of standIns) masked = masked.replaceAll(id, standIn);
    return masked.replace(/20[0-8]\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'YYYY-MM-DDThh:mm:ss.sssZ');
  };
  const open = () => openSqliteStore(file);
  return { file, ids, mask, open, env: { NOVARCH_STORE: file } };
}

describe('novarch holds', () => {
  it('lists holds as a table and filters them by status and session', async () => {
    const { env, ids, mask, file } = await buildStore();
    await waitOn(file, ids.refundHold.id);
    const all = await novarch(['holds', 'list'], env);
    expect(all.code).toBe(0);
    expect(mask(all.stdout)).toBe(
      `HOLD                                       STATUS               SESSION                                   ACTION  RECORD  DEADLINE                  SUMMARY
hold_00000000-0000-0000-0000-000000000001  pending (waiting)    ses_00000000-0000-0000-0000-000000000001  refund  c-7     2099-01-01T00:00:00.000Z  Refund 900 € to c-7
hold_00000000-0000-0000-0000-000000000002  pending (abandoned)  ses_00000000-0000-0000-0000-000000000002  refund  c-9     2099-01-01T00:00:00.000Z  Refund 600 € to c-9
(RECORD and SUMMARY are written by the agent)
`,
    );
    expect((await novarch(['holds', 'list', '--status', 'approved'], env)).stdout).toBe('No holds found.\n');
    const abandoned = await novarch(['holds', 'list', '--status', 'abandoned'], env);
    expect(mask(abandoned.stdout).split('\n').slice(1, -2)).toEqual([
      expect.stringMatching(/^hold_00000000-0000-0000-0000-000000000002 {2}pending \(abandoned\)/),
    ]);
    const unknown = await novarch(['holds', 'list', '--status', 'stuck'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      "--status <status>' argument 'stuck' is invalid. Allowed choices are pending, approved, denied, skipped, timed_out, waiting, abandoned, expired.",
    );
    const json = await novarch(['holds', 'list', '--session', ids.globex.id, '--json'], env);
    const listed = z
      .array(
        z.object({
          hold: z.object({ id: z.string(), waiter: z.object({ seenAt: z.string(), pid: z.number() }) }),
          state: z.string(),
        }),
      )
      .parse(JSON.parse(json.stdout));
    expect(listed).toEqual([
      {
        hold: expect.objectContaining({ id: ids.otherHold.id, waiter: { seenAt: LAST_CHECK_IN, pid: 4242 } }),
        state: 'abandoned',
      },
    ]);
  });

  it('shows a hold with its action, session, verdict citations and the cited evidence', async () => {
    const { env, ids, mask } = await buildStore();
    const shown = await novarch(['holds', 'show', ids.refundHold.id], env);
    expect(shown.code).toBe(0);
    expect(mask(shown.stdout)).toBe(`Hold hold_00000000-0000-0000-0000-000000000001
  status     pending (abandoned)
  created    YYYY-MM-DDThh:mm:ss.sssZ
  deadline   2099-01-01T00:00:00.000Z
  waiter     pid 4242 on agent-7, last check-in YYYY-MM-DDThh:mm:ss.sssZ
             Nothing waits on it: no agent process has checked in on it since YYYY-MM-DDThh:mm:ss.sssZ (pid 4242 on agent-7); approving it will not run anything. If the write is still wanted, the agent must retry the action.

Session ses_00000000-0000-0000-0000-000000000001
  tenant     acme
  team       support
  agent      refund-bot
  started    YYYY-MM-DDThh:mm:ss.sssZ

Action act_00000000-0000-0000-0000-000000000001
  type       refund
  tool       mcp__crm__refund
  record     (agent) c-7
  summary    (agent) Refund 900 € to c-7
  context    (agent) {"recordId":"c-7","summary":"Refund 900 € to c-7"}
  input      (agent) {"recordId":"c-7","reasoning":"charged twice"}
  reasoning  (agent) charged twice
  (agent): written by the agent or built from its tool input, not by Novarch or an operator

Verdict hold (judge, YYYY-MM-DDThh:mm:ss.sssZ)
  rules      TEAM-2
  evidence   evd_00000000-0000-0000-0000-000000000001
  rationale  TEAM-2 says hold

Cited evidence
  evd_00000000-0000-0000-0000-000000000001  mcp__crm__lookup_customer  YYYY-MM-DDThh:mm:ss.sssZ
    input   (agent) {"customerId":"c-7"}
    output  (tool) {"name":"Ana Lima","charges":[450,450]}
`);
    const json = JSON.parse((await novarch(['holds', 'show', ids.refundHold.id, '--json'], env)).stdout);
    expect(json.verdict.verdict.citations).toEqual({
      ruleIds: ['TEAM-2'],
      evidenceIds: [ids.lookup.id],
      rationale: 'TEAM-2 says hold',
    });
    expect(json.citedEvidence).toMatchObject([{ id: ids.lookup.id, output: { name: 'Ana Lima' } }]);
    expect(json.state).toBe('abandoned');
  });

  it('approves as $USER, denies only with a rationale, and refuses a second decision (exit 3)', async () => {
    const { env, ids, open, file } = await buildStore();
    const refundAgent = await waitOn(file, ids.refundHold.id);
    const otherAgent = await waitOn(file, ids.otherHold.id);
    const approved = await novarch(
      ['holds', 'approve', ids.refundHold.id, '--rationale', 'charged twice'],
      env,
    );
    expect(approved).toEqual({
      code: 0,
      stdout: `Hold ${ids.refundHold.id} approved by ana: charged twice\nThe gate lets the write run.\n`,
      stderr: '',
    });
    const bare = await novarch(['holds', 'deny', ids.otherHold.id], env);
    expect(bare).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: novarch holds deny needs --rationale TEXT: the agent is told why its action was refused.\n',
    });
    const denied = await novarch(
      ['holds', 'deny', ids.otherHold.id, '--rationale', 'no', '--operator', 'bob'],
      env,
    );
    expect(denied.code).toBe(0);
    const store = await open();
    const stored = await store.getHold(ids.refundHold.id);
    expect(stored).toMatchObject({ status: 'approved', decidedBy: 'ana', rationale: 'charged twice' });
    expect(await store.getHold(ids.otherHold.id)).toMatchObject({ status: 'denied', decidedBy: 'bob' });
    await store.close();
    // The waiting agents got the decisions.
    expect(await refundAgent.decided).toMatchObject({ status: 'approved', decidedBy: 'ana' });
    expect(await otherAgent.decided).toMatchObject({ status: 'denied', decidedBy: 'bob', rationale: 'no' });

    const again = await novarch(['holds', 'skip', ids.refundHold.id], env);
    expect(again).toEqual({
      code: 3,
      stdout: '',
      stderr:
        `error: Hold ${ids.refundHold.id} was already approved by ana at ${stored?.decidedAt}: ` +
        'charged twice. Nothing was changed.\n',
    });
  });

  it('refuses to decide abandoned and expired holds (exit 3) unless --force, which runs nothing', async () => {
    const { env, ids, open, file, mask } = await buildStore();
    const store = await open();
    const late = await store.recordAction({
      sessionId: ids.acme.id,
      actionType: 'refund',
      toolName: 'mcp__crm__refund',
      input: { recordId: 'c-8' },
      context: { recordId: 'c-8', summary: 'Refund 700 € to c-8' },
    });
    const expiredDeadline = new Date(Date.now() - 60_000);
    const expired = await store.createHold(late.id, ids.acme.id, expiredDeadline);
    await store.close();
    const waiting = await waitOn(file, ids.refundHold.id);

    const listed = await novarch(['holds', 'list', '--status', 'pending'], env);
    expect(listed.code).toBe(0);
    expect(
      mask(listed.stdout)
        .split('\n')
        .map((line) => line.split(/\s{2,}/).slice(0, 2)),
    ).toEqual([
      ['HOLD', 'STATUS'],
      ['hold_00000000-0000-0000-0000-000000000001', 'pending (waiting)'],
      ['hold_00000000-0000-0000-0000-000000000002', 'pending (abandoned)'],
      [expired.id, 'pending (expired)'],
      ['(RECORD and SUMMARY are written by the agent)'],
      [''],
    ]);
    const shown = await novarch(['holds', 'show', expired.id], env);
    expect(shown.stdout).toContain(
      '  status     pending (expired)\n' +
        `  created    ${expired.createdAt}\n` +
        `  deadline   ${expired.deadline}\n` +
        '  waiter     no process has checked in\n' +
        '             Nothing waits on it: its deadline has passed; approving it will not run anything. ' +
        'If the write is still wanted, the agent must retry the action.\n',
    );

    const advice =
      'No agent waits for this decision: the write will not run, whatever you decide. ' +
      'If it is still wanted, the agent must retry the action.\n' +
      'To close the hold anyway, rerun with --force: it is stored as timed_out under your name, ' +
      'and nothing runs.\nNothing was changed.\n';
    const abandonedRefusal =
      `error: Hold ${ids.otherHold.id} is abandoned: no agent process has checked in on it since ` +
      `${LAST_CHECK_IN} (pid 4242 on agent-7).\n${advice}`;
    for (const args of [
      ['approve', ids.otherHold.id],
      ['deny', ids.otherHold.id, '--rationale', 'no'],
      ['skip', ids.otherHold.id],
    ]) {
      expect(await novarch(['holds', ...args], env)).toEqual({
        code: 3,
        stdout: '',
        stderr: abandonedRefusal,
      });
    }
    expect(await novarch(['holds', 'approve', expired.id, '--rationale', 'late'], env)).toEqual({
      code: 3,
      stdout: '',
      stderr:
        `error: Hold ${expired.id} is expired: its deadline (${expired.deadline}) passed while it was still ` +
        `pending.\n${advice}`,
    });
    const unchanged = await open();
    expect((await unchanged.listHolds({ status: 'pending' })).map((hold) => hold.id)).toEqual([
      ids.refundHold.id,
      ids.otherHold.id,
      expired.id,
    ]);
    await unchanged.close();

    const forced = await novarch(
      ['holds', 'approve', ids.otherHold.id, '--force', '--rationale', 'charged twice'],
      env,
    );
    const closedRationale =
      `Closed with novarch holds approve --force: no agent process had checked in since ${LAST_CHECK_IN} ` +
      '(pid 4242 on agent-7), so the write did not run. Rationale: charged twice';
    expect(forced).toEqual({
      code: 0,
      stdout:
        `Hold ${ids.otherHold.id} timed_out by ana: ${closedRationale}\n` +
        'Nothing runs this write: no agent was waiting for the decision. ' +
        'If the write is still wanted, the agent must retry the action.\n',
      stderr: '',
    });
    const forcedExpired = await novarch(
      ['holds', 'deny', expired.id, '--force', '--rationale', 'stale'],
      env,
    );
    expect(forcedExpired.code).toBe(0);
    const after = await open();
    expect(await after.getHold(ids.otherHold.id)).toMatchObject({
      status: 'timed_out',
      decidedBy: 'ana',
      rationale: closedRationale,
    });
    expect(await after.getHold(expired.id)).toMatchObject({
      status: 'timed_out',
      rationale:
        `Closed with novarch holds deny --force: the deadline (${expired.deadline}) had passed, so the write ` +
        'did not run. Rationale: stale',
    });
    await after.close();

    // --force changes nothing for a hold an agent waits on: it is approved, and the agent runs it.
    const approved = await novarch(['holds', 'approve', ids.refundHold.id, '--force'], env);
    expect(approved).toEqual({
      code: 0,
      stdout: `Hold ${ids.refundHold.id} approved by ana\nThe gate lets the write run.\n`,
      stderr: '',
    });
    expect(await waiting.decided).toMatchObject({ status: 'approved', decidedBy: 'ana' });
    const help = await novarch(['holds', 'approve', '--help']);
    expect(help.stdout).toContain('--force');
    expect(help.stdout).toContain('stored as timed_out under your');
  });

  it('names the closest ids for an unknown hold (exit 2)', async () => {
    const { env, ids, file } = await buildStore();
    const typo = `${ids.otherHold.id.slice(0, -1)}x`;
    const result = await novarch(['holds', 'approve', typo], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: No hold "${typo}" in the store at ${file}.\nClosest hold ids:\n  ${ids.otherHold.id}\n  ${ids.refundHold.id}\n`,
    );
  });
});

describe('novarch sessions', () => {
  it('kills a running session: the store latches it with the operator and reason', async () => {
    const { env, ids, open, mask } = await buildStore();
    const killed = await novarch(['sessions', 'kill', ids.globex.id, '--reason', 'deleting notes'], env);
    expect(killed.code).toBe(0);
    const store = await open();
    const session = await store.getSession(ids.globex.id);
    await store.close();
    expect(session?.killedAt).toMatch(/^\d{4}-/);
    expect(session?.killReason).toBe('operator ana: deleting notes');
    expect(killed.stdout).toBe(
      `Session ${ids.globex.id} killed at ${session?.killedAt}: operator ana: deleting notes\n` +
        'The gate refuses its next tool call, reads included.\n',
    );
    expect(mask((await novarch(['sessions', 'list', '--killed'], env)).stdout)).toBe(
      `SESSION                                   TENANT  TEAM  AGENT      STARTED                   HOLD WAIT  KILLED                    KILL REASON
ses_00000000-0000-0000-0000-000000000002  globex  ops   notes-bot  YYYY-MM-DDThh:mm:ss.sssZ  60s        YYYY-MM-DDThh:mm:ss.sssZ  operator ana: deleting notes
`,
    );
    const again = await novarch(['sessions', 'kill', ids.globex.id, '--reason', 'again'], env);
    expect(again.code).toBe(3);
    const unknown = await novarch(['sessions', 'kill', 'ses_nope', '--reason', 'x'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('error: No session "ses_nope" in the store at');
    for (const id of [ids.acme.id, ids.globex.id]) expect(unknown.stderr).toContain(`\n  ${id}`);
  });
});

describe('novarch audit', () => {
  it('prints one line per action and filters by tenant, agent, session, verdict and limit', async () => {
    const { env, ids, mask, file } = await buildStore();
    await waitOn(file, ids.refundHold.id);
    const all = await novarch(['audit'], env);
    expect(mask(all.stdout)).toBe(
      `TIME                      SESSION                                   AGENT       ACTION         RECORD  VERDICT  RULES   HOLD
YYYY-MM-DDThh:mm:ss.sssZ  ses_00000000-0000-0000-0000-000000000001  refund-bot  refund         c-7     hold     TEAM-2  pending (waiting)
YYYY-MM-DDThh:mm:ss.sssZ  ses_00000000-0000-0000-0000-000000000001  refund-bot  add_note       c-7     pass     TEAM-1  -
YYYY-MM-DDThh:mm:ss.sssZ  ses_00000000-0000-0000-0000-000000000002  notes-bot   refund         c-9     hold     TEAM-2  pending (abandoned)
YYYY-MM-DDThh:mm:ss.sssZ  ses_00000000-0000-0000-0000-000000000002  notes-bot   delete_record  n-1     kill     TEAM-9  -
(RECORD is written by the agent)
`,
    );
    const json = await novarch(['audit', '--verdict', 'hold', '--json'], env);
    const states = z.array(z.object({ holdState: z.string() })).parse(JSON.parse(json.stdout));
    expect(states.map((entry) => entry.holdState)).toEqual(['waiting', 'abandoned']);
    const actionTypes = async (...args: string[]) => {
      const result = await novarch(['audit', ...args, '--json'], env);
      const entries = z.array(z.object({ action: z.object({ actionType: z.string() }) }));
      return entries.parse(JSON.parse(result.stdout)).map((entry) => entry.action.actionType);
    };
    expect(await actionTypes('--tenant', 'globex')).toEqual(['refund', 'delete_record']);
    expect(await actionTypes('--agent', 'refund-bot', '--verdict', 'pass')).toEqual(['add_note']);
    expect(await actionTypes('--session', ids.acme.id, '--limit', '1')).toEqual(['add_note']);
    expect(await actionTypes('--verdict', 'kill')).toEqual(['delete_record']);
    const badLimit = await novarch(['audit', '--limit', '0'], env);
    expect(badLimit).toMatchObject({
      code: 2,
      stderr: 'error: novarch audit: --limit: expected a whole number of 1 or more\n',
    });
  });
});

describe('novarch store, help and exit codes', () => {
  it('takes --store over --config over $NOVARCH_STORE, and says when there is no store (exit 2)', async () => {
    const { file, env } = await buildStore();
    const config = path.join(path.dirname(file), 'novarch.yaml');
    writeFileSync(config, 'store:\n  path: ./novarch.db\n');
    const viaConfig = await novarch(['audit', '--config', config], { NOVARCH_STORE: '/nowhere.db' });
    expect(viaConfig.stdout.split('\n')).toHaveLength(7);
    const viaStore = await novarch(['--store', file, 'audit', '--config', '/nowhere.yaml'], env);
    expect(viaStore.code).toBe(0);
    const missing = await novarch(['holds', 'list'], { NOVARCH_STORE: '/nowhere/novarch.db' });
    expect(missing).toMatchObject({
      code: 2,
      stderr:
        'error: No Novarch store at /nowhere/novarch.db (from $NOVARCH_STORE). Pass --store FILE or ' +
        '--config FILE, or set NOVARCH_STORE, to the store your agents use.\n',
    });
  });

  it('--help lists the commands and the exit codes', async () => {
    const help = await novarch(['--help']);
    expect(help.code).toBe(0);
    for (const text of ['holds ', 'sessions ', 'audit ', 'Exit codes:', '  3  refused:', '$NOVARCH_STORE']) {
      expect(help.stdout).toContain(text);
    }
    const holds = await novarch(['holds', '--help']);
    for (const command of ['list', 'show', 'approve', 'deny', 'skip'])
      expect(holds.stdout).toContain(command);
    expect((await novarch(['holds', 'deny', '--help'])).stdout).toContain('Exit codes:');
  });
});
