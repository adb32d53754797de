import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ActiveSession, type HoldEvent, NovarchHookGate } from '../../../src/index.js';
import {
  type GovernorBase,
  openGovernorBase,
  openGovernorWorld,
} from '../governor/support/governor-world.js';
import { denyReason, gateHooks, isNoOpinion } from './support/hook-calls.js';
import {
  eventually,
  LOOKUP,
  type NovarchTestBase,
  openNovarchTestBase,
  REFUND,
  refundContext,
  SCOPE,
  testEngine,
} from './support/novarch-test-world.js';

// The `onHold` listener of the hook gate and of the tool governor: a held write is reported when
// it starts waiting (hold id, deadline, the rules that held it) and when the wait ends, with the
// operator's decision; a listener that throws changes no verdict.

let gateBase: NovarchTestBase;
let governorBase: GovernorBase;
beforeAll(async () => {
  gateBase = await openNovarchTestBase();
  governorBase = await openGovernorBase();
});
afterAll(async () => {
  await gateBase.close();
  await governorBase.close();
});

/** A gate on a fresh session that reports its holds to `events` (or to a listener that throws). */
async function openGate(
  events: HoldEvent[],
  options: { throwing?: boolean; holdWindowSeconds?: number } = {},
) {
  const engine = testEngine(gateBase, gateBase.store, {
    ...(options.holdWindowSeconds === undefined ? {} : { holdWindowSeconds: options.holdWindowSeconds }),
  });
  const session: ActiveSession = { engine, record: await engine.openSession({ ...SCOPE }) };
  const gate = await new NovarchHookGate({
    toolKinds: { [LOOKUP]: 'read', [REFUND]: 'write' },
    writeSpecs: { [REFUND]: { actionType: 'issue_refund', contextBuilder: refundContext } },
    session,
    warn: () => {},
    onHold: (event) => {
      events.push(event);
      if (options.throwing) throw new Error('the listener broke');
    },
  }).open();
  const hooks = gateHooks(gate);
  // TEAM-1 wants a lookup of the same customer first; TEAM-2 holds refunds over 500.
  expect(isNoOpinion(await hooks.pre(LOOKUP, { customer_id: 'C1' }, 'l1'))).toBe(true);
  await hooks.post(LOOKUP, { customer_id: 'C1' }, 'l1', 'customer C1: in good standing');
  return { hooks, sessionId: session.record.id };
}

function pendingHold(store: NovarchTestBase['store'], sessionId: string) {
  return eventually(async () => (await store.listHolds({ status: 'pending', sessionId }))[0]);
}

describe('NovarchHookGate onHold', () => {
  it('reports a held write as pending (id, deadline, rules) and then as approved', async () => {
    const events: HoldEvent[] = [];
    const { hooks, sessionId } = await openGate(events);
    const write = hooks.pre(REFUND, { customer_id: 'C1', amount: 900 }, 'r1');
    const hold = await pendingHold(gateBase.store, sessionId);
    expect(events).toEqual([
      {
        type: 'hold-pending',
        hold: expect.objectContaining({ id: hold.id, status: 'pending', deadline: hold.deadline }),
        toolName: REFUND,
        actionType: 'issue_refund',
        callId: 'r1',
        citations: expect.objectContaining({ ruleIds: ['TEAM-2'] }),
      },
    ]);
    await gateBase.store.decideHold(hold.id, 'approved', 'operator-ana', 'checked with finance');
    expect(isNoOpinion(await write)).toBe(true);
    expect(events.at(-1)).toEqual({
      type: 'hold-resolved',
      hold: expect.objectContaining({
        id: hold.id,
        status: 'approved',
        decidedBy: 'operator-ana',
        rationale: 'checked with finance',
      }),
      toolName: REFUND,
      actionType: 'issue_refund',
      callId: 'r1',
    });
    expect(events).toHaveLength(2);
  });

  it('a listener that throws changes nothing: the denied write is refused with the rationale', async () => {
    const events: HoldEvent[] = [];
    const { hooks, sessionId } = await openGate(events, { throwing: true });
    const write = hooks.pre(REFUND, { customer_id: 'C1', amount: 900 }, 'r1');
    const hold = await pendingHold(gateBase.store, sessionId);
    await gateBase.store.decideHold(hold.id, 'denied', 'operator-ana', 'over the limit');
    expect(denyReason(await write)).toBe('Novarch: an operator denied this action: over the limit');
    expect(events.map((event) => [event.type, event.hold.status])).toEqual([
      ['hold-pending', 'pending'],
      ['hold-resolved', 'denied'],
    ]);
  });

  it('reports nothing for a write that passes', async () => {
    const events: HoldEvent[] = [];
    const { hooks } = await openGate(events);
    expect(isNoOpinion(await hooks.pre(REFUND, { customer_id: 'C1', amount: 90 }, 'r1'))).toBe(true);
    expect(events).toEqual([]);
  });
});

describe('NovarchToolGovernor onHold', () => {
  it('reports a held write as pending and then as timed out, with the call id it was given', async () => {
    const events: HoldEvent[] = [];
    const world = await openGovernorWorld(governorBase, {
      // Long enough to be offered to an operator (a hold under a second is closed at once).
      holdWindowSeconds: 2,
      governor: { onHold: (event) => events.push(event) },
    });
    await world.lookUp('C5');
    const outcome = await world.governor.run(
      { toolName: 'issue_refund', input: { customer_id: 'C5', amount: 900 }, callId: 'call-7' },
      () => 'refunded',
    );
    expect(outcome).toMatchObject({ kind: 'killed', reason: expect.stringMatching(/no operator decided/) });
    expect(events.map((event) => [event.type, event.hold.status, event.callId, event.toolName])).toEqual([
      ['hold-pending', 'pending', 'call-7', 'issue_refund'],
      ['hold-resolved', 'timed_out', 'call-7', 'issue_refund'],
    ]);
    const [pending] = events;
    expect(pending?.type === 'hold-pending' && pending.citations.ruleIds).toEqual(['TEAM-2']);
    expect(Date.parse(pending?.hold.deadline ?? '')).toBeGreaterThan(
      Date.parse(pending?.hold.createdAt ?? ''),
    );
  });
});
