import { reply, startFakeAnthropic, toolUse } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NovarchKillError } from '../../src/index.js';
import { createGateWorld, type GateWorld, lookup, refund, toolResultsSeen } from './support/gate-fixture.js';
import { operatorDecides } from './support/operator-process.js';

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

/** What the model saw as the result of each tool call, by call id. */
const seen = (index: number) => toolResultsSeen(fake, index);

describe('NovarchHookGate through the real CLI', () => {
  it('judge pass: the write runs after a lookup of the same customer, and the verdict is audited', async () => {
    world = await createGateWorld();
    fake.script(lookup('C1', 'l1'), refund('C1', 120, 'r1'), reply('done'));
    const gate = await world.run(fake.url);
    expect(world.refunds).toEqual([{ customer_id: 'C1', amount: 120 }]);
    expect(() => gate.raiseIfKilled()).not.toThrow();
    const [entry] = await world.store.audit();
    expect(entry?.verdict?.verdict).toMatchObject({
      kind: 'pass',
      citations: { ruleIds: ['TEAM-1', 'TEAM-2'] },
    });
    expect(entry?.action.reasoning).toBe('customer asked');
    expect((await world.store.listEvidence(entry?.session.id ?? '')).map((e) => e.toolName)).toEqual([
      'mcp__cs__lookup_customer',
    ]);
  });

  it('judge kill: refused, latched (a later read is refused too), and raiseIfKilled throws', async () => {
    world = await createGateWorld();
    fake.script(refund('C2', 50, 'r1'), lookup('C2', 'l1'), reply('stopped'));
    const gate = await world.run(fake.url);
    expect(world.refunds).toEqual([]);
    expect(seen(1).r1?.text).toContain('Novarch: refused: TEAM-1');
    expect(seen(2).l1?.text).toContain('this session was stopped');
    expect(() => gate.raiseIfKilled()).toThrow(NovarchKillError);
    expect(() => gate.raiseIfKilled()).toThrow(/\[rules: TEAM-1\]/);
  });

  it('hold approved by an operator in another process: the write runs', async () => {
    world = await createGateWorld();
    fake.script(lookup('C3', 'l1'), refund('C3', 900, 'r1'), reply('done'));
    const operator = operatorDecides(world.storeFile, 'approved', 'checked with finance');
    const gate = await world.run(fake.url);
    expect(await operator).toBe(0);
    expect(world.refunds).toEqual([{ customer_id: 'C3', amount: 900 }]);
    expect(gate.killed).toBe(false);
    const [hold] = await world.store.listHolds();
    expect(hold).toMatchObject({
      status: 'approved',
      decidedBy: 'operator-ana',
      rationale: 'checked with finance',
    });
  });

  it('operator deny: refused with the rationale, and the agent continues', async () => {
    world = await createGateWorld();
    fake.script(lookup('C4', 'l1'), refund('C4', 900, 'r1'), lookup('C4', 'l2'), reply('ok'));
    const operator = operatorDecides(world.storeFile, 'denied', 'over the monthly limit');
    const gate = await world.run(fake.url);
    expect(await operator).toBe(0);
    expect(world.refunds).toEqual([]);
    expect(seen(2).r1?.text).toContain('an operator denied this action: over the monthly limit');
    expect(seen(3).l2?.isError).toBe(false);
    expect(gate.killed).toBe(false);
  });

  it('hold timeout: refused and latched (fail-closed)', async () => {
    world = await createGateWorld(1);
    fake.script(lookup('C5', 'l1'), refund('C5', 900, 'r1'), reply('stopped'));
    const gate = await world.run(fake.url);
    expect(world.refunds).toEqual([]);
    expect(seen(2).r1?.text).toContain('no operator decided the hold in time');
    expect(() => gate.raiseIfKilled()).toThrow(NovarchKillError);
    expect((await world.store.listHolds())[0]?.status).toBe('timed_out');
  });

  it("a read the user's own permissions deny is a refused call, not evidence, and does not block the next write", async () => {
    world = await createGateWorld();
    fake.script(lookup('C7', 'l1'), lookup('C8', 'l2'), refund('C8', 80, 'r1'), reply('done'));
    await world.run(fake.url, { denyLookupOf: 'C7' });
    expect(seen(1).l1).toMatchObject({ isError: true, text: 'lookups of C7 are not allowed' });
    expect(world.refunds).toEqual([{ customer_id: 'C8', amount: 80 }]);
    const [entry] = await world.store.audit();
    const evidence = await world.store.listEvidence(entry?.session.id ?? '');
    expect(evidence.map(({ input, isError }) => ({ input, isError }))).toEqual([
      { input: { customer_id: 'C8' }, isError: false },
    ]);
  });

  it('without gate.track the denied read stays in flight, so the next write is refused (fail-closed)', async () => {
    world = await createGateWorld();
    fake.script(lookup('C7', 'l1'), lookup('C8', 'l2'), refund('C8', 80, 'r1'), reply('done'));
    await world.run(fake.url, { denyLookupOf: 'C7', untracked: true });
    expect(world.refunds).toEqual([]);
    expect(seen(3).r1?.text).toContain('may not run alongside other tool calls');
  });

  it('unmapped tools are refused', async () => {
    world = await createGateWorld();
    fake.script(toolUse('mcp__cs__delete_account', { customer_id: 'C6' }, { id: 'd1' }), reply('ok'));
    await world.run(fake.url);
    expect(seen(1).d1?.text).toContain('tool "mcp__cs__delete_account" is not mapped to read or write');
  });

  it('refuses a hook timeout that does not outlive the hold wait, naming the minimum', async () => {
    world = await createGateWorld(30);
    await expect(world.run(fake.url, { timeoutS: 20 })).rejects.toThrow(
      "hooksConfig timeoutS 20 does not outlive this session's hold wait of 30 s; use more than 30 (the default is 90)",
    );
  });
});
