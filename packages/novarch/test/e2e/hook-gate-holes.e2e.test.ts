import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  reply,
  respond,
  startFakeAnthropic,
  systemPromptText,
  toolResults,
  toolUse,
  toolUses,
  waitUntil,
} from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LlmJudge, NovarchHookGate } from '../../src/index.js';
import { createGateWorld, type GateWorld, lookup, refund, toolResultsSeen } from './support/gate-fixture.js';
import { runNovarch } from './support/run-novarch-cli.js';

// Issue 14, "close the holes a governance gate must not have": each test drives the real SDK and
// CLI against the fake model server, and failed before the fix it is named after.

let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
let world: GateWorld;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  await world?.close();
  try {
    fake.assertComplete();
  } finally {
    fake.reset();
  }
});
afterAll(() => fake.close());

const seen = (index: number) => toolResultsSeen(fake, index);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const LOOKUP = 'mcp__cs__lookup_customer';
const REFUND = 'mcp__cs__issue_refund';
const refundInput = (customer: string, amount: number) => ({
  customer_id: customer,
  amount,
  reasoning: 'customer asked',
});

/** The fixture's rules plus a rule only an LLM judge decides (for a judgement that takes time). */
const RULES_WITH_LLM = `team: cs-ops
action_types: [issue_refund]
rules:
  - id: TEAM-1
    version: 1
    description: A refund needs a prior lookup of the same customer.
    applies_to: [issue_refund]
    on_violation: kill
    condition: evidence.exists(e, e.tool == "${LOOKUP}" && e.input.customer_id == action.context.recordId)
  - id: TEAM-3
    version: 1
    description: The refund is courteous.
    applies_to: [issue_refund]
    on_violation: hold
`;

describe('issue 14 through the real CLI', () => {
  /** Item 1: evidence is what executed. Before: the denied lookup was evidence and the refund ran. */
  it('1: a lookup the permission rules denied is no evidence: the refund of that customer is killed', async () => {
    world = await createGateWorld();
    fake.script(lookup('C7', 'l1'), refund('C7', 80, 'r1'), reply('done'));
    const gate = await world.run(fake.url, { denyLookupOf: 'C7' });
    expect(world.refunds).toEqual([]);
    expect(seen(2).r1?.text).toContain('Novarch: refused: TEAM-1');
    expect(gate.killed).toBe(true);
    const audit = await world.store.audit();
    expect(
      audit.map((entry) => [entry.action.toolName, entry.verdict?.source, entry.verdict?.verdict.kind]),
    ).toEqual([
      [LOOKUP, 'permissions', 'kill'],
      [REFUND, 'judge', 'kill'],
    ]);
    expect(await world.store.listEvidence(audit[0]?.session.id ?? '')).toEqual([]);
  });

  /** Item 5: writes dispatched alongside other calls of one message. Before: both refunds ran. */
  it('5: [lookup, refund] and [refund, refund] in one message: the write beside another call is refused', async () => {
    world = await createGateWorld();
    fake.script(
      toolUses([
        { name: LOOKUP, input: { customer_id: 'C9' }, id: 'l1' },
        { name: REFUND, input: refundInput('C9', 40), id: 'r1' },
      ]),
      toolUses([
        { name: REFUND, input: refundInput('C9', 41), id: 'r2' },
        { name: REFUND, input: refundInput('C9', 42), id: 'r3' },
      ]),
      reply('done'),
    );
    await world.run(fake.url);
    // Without partial messages the gate may see the refund's block only after its hook started:
    // when the lookup was refused for the write beside it, the refund is then judged alone, with
    // no lookup on record, and TEAM-1 kills the session. Both ways nothing runs.
    const first = seen(1).r1?.text ?? '';
    if (first.includes('this session was stopped (TEAM-1')) {
      expect(world.refunds).toEqual([]);
      const audit = await world.store.audit();
      expect(
        audit
          .filter((entry) => entry.action.toolName === REFUND && entry.verdict?.verdict.kind === 'pass')
          .map((entry) => entry.action.input),
      ).toEqual([]);
      return;
    }
    expect(first).toContain('may not run alongside other tool calls');
    // The first write of a message may have no sibling yet when the CLI starts it (it streams the
    // next block afterwards, and when depends on timing): then it is judged alone, on the evidence of
    // the turns before; if the sibling was already seen it is refused too. Never do both run.
    // Judged alone with the lookup of turn 1 refused, TEAM-1 kills the session: then r3 is refused
    // because the session stopped. Every way, at most one refund runs and r3 never does.
    const third = seen(2).r3?.text ?? '';
    const killedAtSecond = third.includes('this session was stopped (TEAM-1');
    if (!killedAtSecond) expect(third).toContain('may not run alongside other tool calls');
    const firstRan = world.refunds.length === 1;
    expect(world.refunds).toEqual(firstRan ? [{ customer_id: 'C9', amount: 41 }] : []);
    if (killedAtSecond) expect(firstRan).toBe(false);
    // Issue 24: a read whose message already showed a write is refused too (when the CLI starts the
    // lookup before the refund's block streamed, it runs).
    const audit = await world.store.audit();
    const lookups = audit.filter((entry) => entry.action.toolName === LOOKUP);
    expect(lookups.map((entry) => entry.verdict?.source)).toEqual(lookups.length === 0 ? [] : ['gate']);
    expect(
      audit
        .filter((entry) => entry.action.toolName === REFUND)
        .map((entry) => [entry.action.input, entry.verdict?.source]),
    ).toEqual([
      [refundInput('C9', 40), 'gate'],
      [refundInput('C9', 41), firstRan || killedAtSecond ? 'judge' : 'gate'],
      [refundInput('C9', 42), 'gate'],
    ]);
  });

  /**
   * Item 2 (hook gate): a kill stored while a write is judged wins. An LLM judge that takes its
   * time; an operator runs `novarch sessions kill` meanwhile. Before: the refund ran ~2 s later.
   */
  it('2: novarch sessions kill while the write is judged: the write does not run', async () => {
    let storeFile = '';
    let sessionId = '';
    const killed = { code: -1, stdout: '' };
    const slowJudge: LlmJudge = {
      async judge(request) {
        const run = await runNovarch(['sessions', 'kill', sessionId, '--reason', 'fraud suspected'], {
          NOVARCH_STORE: storeFile,
        });
        Object.assign(killed, run);
        await sleep(200);
        return request.rules.map((rule) => ({ ruleId: rule.id, violated: false, rationale: 'fine' }));
      },
    };
    world = await createGateWorld(5, { rulesYaml: RULES_WITH_LLM, llmJudge: slowJudge });
    storeFile = world.storeFile;
    fake.script(lookup('C1', 'l1'), refund('C1', 120, 'r1'), reply('stopped'));
    const gate = await world.run(fake.url, {
      onGate: (opened: NovarchHookGate) => {
        sessionId = opened.sessionId;
      },
    });
    expect(killed.code).toBe(0);
    expect(world.refunds).toEqual([]);
    expect(seen(2).r1?.text).toContain('an operator killed this session while this write was being judged');
    expect(() => gate.raiseIfKilled()).toThrow('killed by an operator: operator ana: fraud suspected');
    const [entry] = await world.store.audit();
    expect(entry?.action.releasedAt).toBeUndefined();
    expect(entry?.verdict).toMatchObject({ source: 'gate', verdict: { kind: 'kill' } });
    expect(entry?.verdict?.verdict.citations.rationale).toContain('it did not run');
  });

  /** Item 4: an aborted query closes its hold at once. Before: the hold stayed approvable. */
  it('4: aborting the query while a write is held closes the hold at once; approving it is refused', async () => {
    world = await createGateWorld(30);
    fake.script(lookup('C3', 'l1'), refund('C3', 900, 'r1'));
    const abortController = new AbortController();
    const running = world.run(fake.url, { abortController });
    // The CLI takes a few seconds to reach the hold on a loaded machine: wait up to 30 s for it.
    const holdId = await waitUntil(async () => (await world.store.listHolds({ status: 'pending' }))[0]?.id, {
      timeoutMs: 30_000,
      what: 'the refund to be held',
    });
    abortController.abort();
    const closed = await waitUntil(
      async () => {
        const hold = await world.store.getHold(holdId);
        return hold?.status === 'pending' ? undefined : hold;
      },
      { timeoutMs: 30_000, what: 'the aborted query to close its hold' },
    );
    expect(closed).toMatchObject({ status: 'timed_out', decidedBy: 'novarch' });
    expect(closed?.rationale).toContain('aborted');
    await running;
    const approve = await runNovarch(['holds', 'approve', holdId], { NOVARCH_STORE: world.storeFile });
    expect(approve.code).toBe(3);
    expect(world.refunds).toEqual([]);
    fake.reset(); // the aborted run never asked for its next step
  });

  /**
   * Item 6: a subagent's write is judged on the session's evidence. Before: the parent's `Agent`
   * call counted as in flight for the whole subagent run, and every subagent write was refused.
   */
  it('6: a subagent looks up and refunds: the write is judged and runs', async () => {
    world = await createGateWorld();
    // Main loop and subagent ask the model in an order the CLI decides: answer each by who asks.
    const route = respond((request) => {
      const ids = toolResults(request).map((result) => result.toolUseId);
      if (systemPromptText(request).includes('You issue refunds.')) {
        if (ids.includes('s2')) return reply('refunded');
        if (ids.includes('s1')) return refund('C4', 60, 's2');
        return lookup('C4', 's1');
      }
      if (ids.includes('a1')) return reply('done');
      return toolUse(
        'Agent',
        { description: 'refund', prompt: 'refund C4', subagent_type: 'refunder', run_in_background: false },
        { id: 'a1' },
      );
    });
    fake.script(...Array.from({ length: 8 }, () => route));
    await world.run(fake.url, {
      agents: {
        refunder: { description: 'Issues refunds', prompt: 'You issue refunds.', tools: [LOOKUP, REFUND] },
      },
    });
    fake.reset(); // how many requests the two loops made is the CLI's business
    expect(world.refunds).toEqual([{ customer_id: 'C4', amount: 60 }]);
    const audit = await world.store.audit();
    expect(
      audit.map((entry) => [entry.action.toolName, entry.verdict?.source, entry.verdict?.verdict.kind]),
    ).toEqual([[REFUND, 'judge', 'pass']]);
  });
});

describe('issue 14, item 13: an agent may not decide its own holds', () => {
  const BIN = fileURLToPath(new URL('../../bin/novarch.js', import.meta.url));

  it('the operator CLI refuses decisions in the environment the gate gives the agent, even with the marker removed', async () => {
    world = await createGateWorld(30);
    fake.script(lookup('C5', 'l1'), refund('C5', 900, 'r1'), reply('done'));
    let agentEnv: Record<string, string> = {};
    const running = world.run(fake.url, {
      onGate: (gate) => {
        // agentEnv drops NOVARCH_STORE; an agent may know the store's path all the same.
        agentEnv = {
          ...gate.agentEnv({ PATH: process.env.PATH ?? '', NO_COLOR: '1', NOVARCH_STORE: world.storeFile }),
          NOVARCH_STORE: world.storeFile,
        };
      },
    });
    // The CLI takes a few seconds to reach the hold on a loaded machine: wait up to 30 s for it.
    const holdId = await waitUntil(async () => (await world.store.listHolds({ status: 'pending' }))[0]?.id, {
      timeoutMs: 30_000,
      what: 'the refund to be held',
    });
    const asAgent = await runNovarch(['holds', 'approve', holdId], agentEnv);
    expect(asAgent.code).toBe(3);
    expect(asAgent.stderr).toContain(
      'runs inside a governed session (NOVARCH_GOVERNED_SESSION="governed" is set)',
    );
    // The marker removed by the agent's own shell: its parent process still carries it.
    const unset = await new Promise<number | null>((resolve) => {
      const child = spawn(
        'sh',
        ['-c', `env -u NOVARCH_GOVERNED_SESSION "${process.execPath}" "${BIN}" holds approve ${holdId}`],
        {
          env: agentEnv,
          stdio: 'ignore',
        },
      );
      child.on('close', resolve);
    });
    expect(unset).toBe(3);
    const reserved = await runNovarch(['holds', 'approve', holdId, '--operator', 'novarch'], {
      NOVARCH_STORE: world.storeFile,
    });
    expect(reserved.code).toBe(2);
    expect(reserved.stderr).toContain('reserved for Novarch');
    const operator = await runNovarch(['holds', 'approve', holdId, '--operator', 'ana'], {
      NOVARCH_STORE: world.storeFile,
    });
    expect(operator.code).toBe(0);
    await running;
    expect(world.refunds).toEqual([{ customer_id: 'C5', amount: 900 }]);
    const [hold] = await world.store.listHolds();
    expect(hold).toMatchObject({ status: 'approved', decidedBy: 'ana', decidedByOsUser: expect.any(String) });
  });
});
