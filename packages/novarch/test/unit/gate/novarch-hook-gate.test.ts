import type { SDKAssistantMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NovarchKillError } from '../../../src/index.js';
import { type FaultableMethod, FaultyStore } from './support/faulty-store.js';
import {
  assistantToolUses,
  denyReason,
  gateHooks,
  isNoOpinion,
  messages,
  resultMessage,
  toolResultMessage,
} from './support/hook-calls.js';
import {
  eventually,
  LOOKUP,
  type NovarchTestBase,
  openNovarchTestBase,
  openTestGate,
  REFUND,
  testEngine,
} from './support/novarch-test-world.js';

// The gate's decisions, driven by calling the hooks from `gate.hooksConfig()` with hand-built hook
// inputs against a real SQLite store (sometimes wrapped to fail). The e2e tests show the same
// decisions through the real CLI; these cover what the CLI cannot be made to do on demand.

let base: NovarchTestBase;
beforeAll(async () => {
  base = await openNovarchTestBase();
});
afterAll(() => base.close());

/** A gate on a fresh session, over the shared store wrapped so a test can make it fail. */
async function openWorld(
  options: { holdWindowSeconds?: number; store?: FaultyStore; warn?: (message: string) => void } = {},
) {
  const store = options.store ?? new FaultyStore(base.store);
  const engine = testEngine(base, store, {
    ...(options.holdWindowSeconds !== undefined ? { holdWindowSeconds: options.holdWindowSeconds } : {}),
  });
  const { session, gate } = await openTestGate(engine, { warn: options.warn ?? (() => {}) });
  const sessionId = session.record.id;
  return { store, engine, session, sessionId, gate, hooks: gateHooks(gate) };
}

const refund = (customer: string, amount: number) => ({
  customer_id: customer,
  amount,
  reasoning: 'customer asked',
});

/** Runs a lookup of `customer` to completion, so its evidence is in the store. */
async function lookUp(hooks: ReturnType<typeof gateHooks>, customer: string, id: string): Promise<void> {
  expect(isNoOpinion(await hooks.pre(LOOKUP, { customer_id: customer }, id))).toBe(true);
  await hooks.post(LOOKUP, { customer_id: customer }, id, `customer ${customer}: in good standing`);
}

/** The session's audit, one line per action: its tool, latest verdict, source and whether it ran. */
async function verdictsOf(sessionId: string) {
  return (await base.store.audit({ sessionId })).map((entry) => ({
    tool: entry.action.toolName,
    kind: entry.verdict?.verdict.kind,
    source: entry.verdict?.source,
    rationale: entry.verdict?.verdict.citations.rationale,
    released: entry.action.releasedAt !== undefined,
  }));
}

/** Waits for the session's pending hold to appear, as an operator watching `novarch holds list` would. */
function pendingHold(sessionId: string) {
  return eventually(async () => (await base.store.listHolds({ status: 'pending', sessionId }))[0]);
}

describe('NovarchHookGate hooks', () => {
  /**
   * Proves the parallel-write rule: a write is not judged while a read of its turn has started but
   * not completed (its evidence is not in yet), nor beside another write; once the read's
   * PostToolUse is in, the same write is judged normally.
   */
  it('refuses a write alongside an unfinished read, and judges it once the read completed', async () => {
    const { hooks, sessionId } = await openWorld();
    expect(isNoOpinion(await hooks.pre(LOOKUP, { customer_id: 'C1' }, 'l1'))).toBe(true);
    expect(denyReason(await hooks.pre(REFUND, refund('C1', 120), 'r1'))).toBe(
      'Novarch: a write may not run alongside other tool calls of the same turn; call it on its own',
    );
    expect(await verdictsOf(sessionId)).toEqual([
      {
        tool: REFUND,
        kind: 'kill',
        source: 'gate',
        rationale: expect.stringMatching(/alongside/),
        released: false,
      },
    ]);

    await hooks.post(LOOKUP, { customer_id: 'C1' }, 'l1', 'customer C1: in good standing');
    const [first, second] = await Promise.all([
      hooks.pre(REFUND, refund('C1', 120), 'r2'),
      hooks.pre(REFUND, refund('C1', 130), 'r3'),
    ]);
    expect(isNoOpinion(first)).toBe(true);
    expect(denyReason(second)).toMatch(/alongside other tool calls/);
    const audit = await base.store.audit({ sessionId });
    expect(
      audit.map((entry) => [entry.action.input, entry.verdict?.verdict.kind, entry.verdict?.source]),
    ).toEqual([
      [refund('C1', 120), 'kill', 'gate'],
      // The second write is refused (and stored) at once, before the first one's action is stored.
      [refund('C1', 130), 'kill', 'gate'],
      [refund('C1', 120), 'pass', 'judge'],
    ]);
  });

  /** Proves that a failed read (PostToolUseFailure) is evidence too, marked isError, and releases the turn. */
  it('records PostToolUseFailure as evidence with isError true', async () => {
    const { hooks, sessionId } = await openWorld();
    expect(isNoOpinion(await hooks.pre(LOOKUP, { customer_id: 'C9' }, 'l1'))).toBe(true);
    await hooks.postFailure(LOOKUP, { customer_id: 'C9' }, 'l1', 'lookup service down');
    await lookUp(hooks, 'C8', 'l2');
    const evidence = await base.store.listEvidence(sessionId);
    expect(
      evidence.map(({ toolName, input, output, isError }) => ({ toolName, input, output, isError })),
    ).toEqual([
      { toolName: LOOKUP, input: { customer_id: 'C9' }, output: 'lookup service down', isError: true },
      {
        toolName: LOOKUP,
        input: { customer_id: 'C8' },
        output: 'customer C8: in good standing',
        isError: false,
      },
    ]);
    expect(isNoOpinion(await hooks.pre(REFUND, refund('C9', 10), 'r1'))).toBe(true);
  });

  /**
   * Proves item 1 of issue 14 (evidence is what executed): a read whose PostToolUse never fires
   * (the user's permission rules denied it) is recorded as a refused call from its tool_result,
   * never as evidence, so the rule "a refund needs a prior lookup" does not pass on it; it no
   * longer blocks the next write as "alongside". (Before: it was stored as evidence, the refund ran.)
   */
  it('records a read that never ran as a refused call, not as evidence a rule can cite', async () => {
    const { gate, hooks, sessionId } = await openWorld();
    gate.observe(assistantToolUses('m1', ['l1']));
    expect(isNoOpinion(await hooks.pre(LOOKUP, { customer_id: 'C5' }, 'l1'))).toBe(true);
    gate.observe(toolResultMessage('l1', 'Permission to use lookup_customer has been denied.', true));
    gate.observe(assistantToolUses('m2', ['r1']));
    expect(denyReason(await hooks.pre(REFUND, refund('C5', 40), 'r1'))).toMatch(/^Novarch: refused: TEAM-1/);
    expect(await base.store.listEvidence(sessionId)).toEqual([]);
    const audit = await base.store.audit({ sessionId });
    expect(audit.map((entry) => [entry.action.toolName, entry.verdict?.source])).toEqual([
      [LOOKUP, 'permissions'],
      [REFUND, 'judge'],
    ]);
    expect(audit[0]?.verdict?.verdict.citations.rationale).toContain('the call did not run');
  });

  /** Proves a call that never produced a result stops counting as in flight when the run ends. */
  it('releases calls left without a result at the end of the run (track)', async () => {
    const { gate, hooks } = await openWorld();
    await lookUp(hooks, 'C6', 'l0');
    expect(isNoOpinion(await hooks.pre(LOOKUP, { customer_id: 'C6' }, 'l1'))).toBe(true);
    expect(denyReason(await hooks.pre(REFUND, refund('C6', 40), 'r1'))).toMatch(/alongside/);
    const seen: string[] = [];
    for await (const message of gate.track(messages(resultMessage()))) seen.push(message.type);
    expect(seen).toEqual(['result']);
    gate.observe(assistantToolUses('m2', ['r2']));
    expect(isNoOpinion(await hooks.pre(REFUND, refund('C6', 40), 'r2'))).toBe(true);
  });

  /** Proves the matchers are registered to block on a failing hook and outlive the hold wait. */
  it('registers blocking matchers whose PreToolUse timeout outlives the hold wait', async () => {
    const { gate, session } = await openWorld({ holdWindowSeconds: 7 });
    const config = gate.hooksConfig();
    expect(config.PreToolUse?.[0]).toMatchObject({
      timeout: session.record.holdWaitSeconds + 60,
      onFailure: 'block',
    });
    expect(config.PostToolUse?.[0]?.onFailure).toBe('block');
    expect(config.PostToolUseFailure?.[0]?.onFailure).toBe('block');
  });
});

describe('NovarchHookGate fails closed', () => {
  /** Proves that a write whose input does not fit its WriteSpec is refused with a readable reason, never judged. */
  it('refuses a write whose context builder throws, saying why', async () => {
    const { hooks, gate, sessionId } = await openWorld();
    await lookUp(hooks, 'C1', 'l1');
    expect(denyReason(await hooks.pre(REFUND, { customer_id: 'C1' }, 'r1'))).toBe(
      'Novarch: the input of "mcp__cs__issue_refund" does not fit its WriteSpec (customer_id and amount are required)',
    );
    expect(denyReason(await hooks.pre(REFUND, 'not an object', 'r2'))).toBe(
      'Novarch: write "mcp__cs__issue_refund" has no usable input or WriteSpec',
    );
    // Item 7 of issue 14: refusals the gate makes itself are recorded, source gate, with the reason.
    expect(await verdictsOf(sessionId)).toEqual([
      {
        tool: REFUND,
        kind: 'kill',
        source: 'gate',
        rationale: expect.stringContaining(
          'does not fit its WriteSpec (customer_id and amount are required)',
        ),
        released: false,
      },
      {
        tool: REFUND,
        kind: 'kill',
        source: 'gate',
        rationale: expect.stringContaining('has no usable input'),
        released: false,
      },
    ]);
    expect(gate.killed).toBe(false);
  });

  /**
   * Proves that a store failing at any step of judging a write that would pass (proposing it: the
   * session's kill check, the action, the evidence; recording the pass with its release) refuses it: the hook
   * resolves with a deny, never with a pass and never by throwing.
   */
  it.each<FaultableMethod>(['proposeAction', 'releaseAction'])(
    'refuses a write that would pass when the store rejects %s',
    async (method) => {
      const { hooks, store, gate } = await openWorld();
      await lookUp(hooks, 'C1', 'l1');
      store.fail(method);
      const output = await hooks.pre(REFUND, refund('C1', 120), 'r1');
      expect(denyReason(output)).toBe(
        `Novarch: the gate failed (injected ${method} failure); refused to be safe`,
      );
      expect(gate.killed).toBe(false);
      store.heal();
      expect(isNoOpinion(await hooks.pre(REFUND, refund('C1', 120), 'r2'))).toBe(true);
    },
  );

  /**
   * Proves issue 24's "actions left with no verdict": a store failing after the write's action was
   * recorded (storing the pass with its release: a lock wait of many processes; the proposal is one
   * transaction, so a failure in it leaves no action)
   * records the refusal on that action, not as a second one, so no judged action is without a verdict.
   */
  it.each<FaultableMethod>(['releaseAction'])(
    'records the refusal on the judged action when the store rejects %s',
    async (method) => {
      const { hooks, store, sessionId } = await openWorld();
      await lookUp(hooks, 'C1', 'l1');
      store.fail(method);
      await hooks.pre(REFUND, refund('C1', 120), 'r1');
      store.heal();
      const entries = await store.audit({ sessionId });
      expect(entries.map((entry) => [entry.action.toolName, entry.action.releasedAt])).toEqual([
        [REFUND, undefined],
      ]);
      expect(
        entries[0]?.verdicts.map((verdict) => [
          verdict.source,
          verdict.verdict.kind,
          verdict.verdict.citations.rationale,
        ]),
      ).toEqual([['gate', 'kill', `the gate failed (injected ${method} failure); refused to be safe`]]);
    },
  );

  /** Proves the same for a held write: a hold that cannot be created, read or timed out is refused. */
  it.each<[FaultableMethod, number]>([
    ['createHold', 30],
    ['getHold', 30],
    ['decideHold', 0],
  ])('refuses a held write when the store rejects %s', async (method, holdWindowSeconds) => {
    const store = new FaultyStore(base.store).fail(method);
    const { hooks } = await openWorld({ store, holdWindowSeconds });
    await lookUp(hooks, 'C1', 'l1');
    expect(denyReason(await hooks.pre(REFUND, refund('C1', 900), 'r1'))).toBe(
      `Novarch: the gate failed (injected ${method} failure); refused to be safe`,
    );
  });

  /**
   * Proves item 8 of issue 14: evidence lost to the store is visible (stderr, the audit) and makes
   * later writes refused as "evidence incomplete", not judged as if the read had not happened.
   * (Before: the refund was killed for "no prior lookup" and the session latched.)
   */
  it('refuses later writes as "evidence incomplete" when a read\'s evidence could not be stored', async () => {
    const warnings: string[] = [];
    const { hooks, store, gate, sessionId } = await openWorld({ warn: (message) => warnings.push(message) });
    store.fail('recordEvidence');
    expect(isNoOpinion(await hooks.pre(LOOKUP, { customer_id: 'C1' }, 'l1'))).toBe(true);
    expect(isNoOpinion(await hooks.post(LOOKUP, { customer_id: 'C1' }, 'l1', 'in good standing'))).toBe(true);
    expect(warnings).toEqual([
      `novarch: session ${sessionId}: the evidence of ${LOOKUP} (call l1) could not be stored: injected recordEvidence failure. Its evidence is incomplete: later writes of the session are refused.`,
    ]);
    store.heal();
    expect(denyReason(await hooks.pre(REFUND, refund('C1', 120), 'r1'))).toBe(
      `Novarch: evidence incomplete: the evidence of ${LOOKUP} (call l1) could not be stored: injected recordEvidence failure; no write of this session is judged on partial evidence`,
    );
    expect(gate.killed).toBe(false);
    expect(await verdictsOf(sessionId)).toEqual([
      {
        tool: REFUND,
        kind: 'kill',
        source: 'gate',
        rationale: expect.stringMatching(/^evidence incomplete/),
        released: false,
      },
    ]);
  });
});

describe('NovarchHookGate stops a killed session', () => {
  /** Proves that an operator kill in the store latches the session at its next call, reads included. */
  it('refuses the next call after an operator kill, and raiseIfKilled throws', async () => {
    const { hooks, gate, sessionId } = await openWorld();
    await lookUp(hooks, 'C1', 'l1');
    await base.store.killSession(sessionId, 'customer complained');
    expect(() => gate.raiseIfKilled()).not.toThrow();

    expect(denyReason(await hooks.pre(LOOKUP, { customer_id: 'C1' }, 'l2'))).toBe(
      'Novarch: an operator killed this session',
    );
    expect(gate.killed).toBe(true);
    expect(() => gate.raiseIfKilled()).toThrow(NovarchKillError);
    expect(() => gate.raiseIfKilled()).toThrow(
      `Novarch killed session ${sessionId}: killed by an operator: customer complained`,
    );
    expect(denyReason(await hooks.pre(REFUND, refund('C1', 120), 'r1'))).toBe(
      'Novarch: this session was stopped (killed by an operator: customer complained); no further tool calls run',
    );
    expect((await verdictsOf(sessionId)).map(({ tool, source }) => [tool, source])).toEqual([
      [LOOKUP, 'gate'],
      [REFUND, 'gate'],
    ]);
  });

  /**
   * Proves that a read whose hook was waiting on the store while a sibling write was killed is
   * refused: nothing is let through once the session latched. (A fix: the gate checked the latch
   * only before awaiting the store.)
   */
  it('refuses a read that was still being checked when a sibling write latched the session', async () => {
    let releaseRead = () => {};
    const readMayGo = new Promise<void>((resolve) => {
      releaseRead = resolve;
    });
    let delayNextGetSession: Promise<void> | undefined;
    class SlowSessionStore extends FaultyStore {
      override async getSession(id: string) {
        const delay = delayNextGetSession;
        delayNextGetSession = undefined;
        const session = await super.getSession(id);
        await delay;
        return session;
      }
    }
    const { hooks, gate } = await openWorld({ store: new SlowSessionStore(base.store) });
    const write = hooks.pre(REFUND, refund('C2', 50), 'r1');
    delayNextGetSession = readMayGo;
    const read = hooks.pre(LOOKUP, { customer_id: 'C2' }, 'l1');
    expect(denyReason(await write)).toMatch(/^Novarch: refused: TEAM-1/);
    expect(gate.killed).toBe(true);
    releaseRead();
    expect(denyReason(await read)).toMatch(/^Novarch: this session was stopped \(TEAM-1/);
  });

  /**
   * Proves a held write without a `reasoning` input carries the model's text before the call as
   * its rationale: the text blocks of the call's own API message (streamed block by block), not
   * an earlier message's nor a subagent's; and that a `reasoning` field still wins.
   */
  it("a held write's rationale is the text of its message before the call", async () => {
    const { hooks, gate, sessionId } = await openWorld();
    const block = (messageId: string, content: Record<string, unknown>, parent: string | null = null) =>
      ({
        type: 'assistant',
        session_id: 'sdk-session',
        parent_tool_use_id: parent,
        uuid: '00000000-0000-4000-8000-000000000002',
        message: { id: messageId, type: 'message', role: 'assistant', content: [content] },
      }) as unknown as SDKAssistantMessage;
    await lookUp(hooks, 'C3', 'l1');
    gate.observe(block('m1', { type: 'text', text: 'Looking the customer up first.' }));
    gate.observe(block('m2', { type: 'text', text: 'They were charged twice.' }));
    gate.observe(block('m2', { type: 'text', text: 'I will refund the duplicate charge.\n' }));
    gate.observe(block('s1', { type: 'text', text: 'a subagent musing' }, 'task-1'));
    gate.observe(block('m2', { type: 'tool_use', id: 'r1', name: REFUND, input: {} }));
    const held = async (input: Record<string, unknown>, id: string) => {
      const write = hooks.pre(REFUND, input, id);
      const hold = await pendingHold(sessionId);
      await base.store.decideHold(hold.id, 'approved', 'operator-bo', 'fine');
      expect(isNoOpinion(await write)).toBe(true);
      const entries = await base.store.audit({ sessionId });
      return entries.find((entry) => entry.action.id === hold.actionId)?.action.reasoning;
    };
    expect(await held({ customer_id: 'C3', amount: 900 }, 'r1')).toBe(
      'They were charged twice.\n\nI will refund the duplicate charge.',
    );
    gate.observe(block('m3', { type: 'text', text: 'Refunding again.' }));
    gate.observe(block('m3', { type: 'tool_use', id: 'r2', name: REFUND, input: {} }));
    expect(await held({ customer_id: 'C3', amount: 901, reasoning: 'customer asked' }, 'r2')).toBe(
      'customer asked',
    );
  });

  /**
   * Proves that a held write an operator approves after the session was killed does not run.
   * (A fix: the gate let an approved write through without checking the session again.)
   */
  it('refuses a held write approved after an operator killed the session', async () => {
    const { hooks, gate, sessionId } = await openWorld();
    await lookUp(hooks, 'C3', 'l1');
    const write = hooks.pre(REFUND, refund('C3', 900), 'r1');
    const hold = await pendingHold(sessionId);
    await base.store.killSession(sessionId, 'fraud suspected');
    await base.store.decideHold(hold.id, 'approved', 'operator-bo', 'looks fine to me');
    expect(denyReason(await write)).toBe(
      'Novarch: an operator killed this session while this write was held',
    );
    expect(() => gate.raiseIfKilled()).toThrow('killed by an operator: fraud suspected');
  });
});
