import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionRecord, HoldRecord, HoldStatus, VerdictRecord } from '../../../src/index.js';
import { type FaultableMethod, FaultyStore } from './support/faulty-store.js';
import { denyReason, gateHooks, isNoOpinion } from './support/hook-calls.js';
import {
  DELETE_ACCOUNT,
  LOOKUP,
  type NovarchTestBase,
  openNovarchTestBase,
  openTestGate,
  REFUND,
  testEngine,
} from './support/novarch-test-world.js';

// The store: the real SQLite store (so holds keep their first-decision-wins semantics), shared by
// all runs, each run on its own session, wrapped per run in an ObservedStore that injects the
// run's faults, plays the operator, and notes what the engine was told (verdicts, hold outcomes)
// so the oracle below does not rely on the gate's own account.

type OperatorDecision = Exclude<HoldStatus, 'pending' | 'timed_out'> | 'none';

const CUSTOMERS = ['C1', 'C2'] as const;
type Customer = (typeof CUSTOMERS)[number];

const lookupCall = fc.record({
  type: fc.constant('lookup' as const),
  customer: fc.constantFrom(...CUSTOMERS),
  fails: fc.boolean(),
});
const refundCall = fc.record({
  type: fc.constant('refund' as const),
  customer: fc.constantFrom(...CUSTOMERS),
  amount: fc.constantFrom(50, 500, 501, 900),
  input: fc.constantFrom('ok', 'ok', 'ok', 'ok', 'malformed', 'explodes'),
  operator: fc.constantFrom<OperatorDecision>(
    'approved',
    'approved',
    'approved',
    'denied',
    'skipped',
    'none',
  ),
  operatorAfterPolls: fc.integer({ min: 0, max: 2 }),
});
const otherCall = fc.record({
  type: fc.constant('other' as const),
  tool: fc.constantFrom(DELETE_ACCOUNT, 'Bash', 'ToolSearch'),
});
const call = fc.oneof({ arbitrary: lookupCall, weight: 4 }, { arbitrary: refundCall, weight: 3 }, otherCall);
type Call = typeof call extends fc.Arbitrary<infer T> ? T : never;

const FAULTABLE: FaultableMethod[] = [
  'getSession',
  'killSession',
  'recordEvidence',
  'listEvidence',
  'recordAction',
  'recordVerdict',
  'createHold',
  'getHold',
  'decideHold',
];
const scenario = fc.record({
  /** Customers looked up (one call per turn) before the random turns, so that writes often pass. */
  warmUp: fc.constantFrom<Customer[]>(['C1', 'C2'], ['C1', 'C2'], ['C2'], []),
  turns: fc.array(
    fc.record({
      /** An operator kills the session (`novarch sessions kill`) before this turn. */
      operatorKill: fc.integer({ min: 0, max: 11 }).map((n) => n === 0),
      /** Tool calls of one model message (mostly one): their PreToolUse hooks fire concurrently. */
      calls: fc.oneof(
        { arbitrary: fc.tuple(call), weight: 3 },
        { arbitrary: fc.array(call, { minLength: 2, maxLength: 3 }), weight: 1 },
      ),
    }),
    { minLength: 1, maxLength: 8 },
  ),
  faults: fc.array(fc.record({ method: fc.constantFrom(...FAULTABLE), nth: fc.nat({ max: 5 }) }), {
    maxLength: 3,
  }),
});

interface OperatorScript {
  decision: OperatorDecision;
  afterPolls: number;
}

function callIdOf(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || !('call_id' in input)) return undefined;
  return typeof input.call_id === 'string' ? input.call_id : undefined;
}

/** A FaultyStore that also plays the scripted operator and records what the engine learned. */
class ObservedStore extends FaultyStore {
  readonly callOfAction = new Map<string, string>();
  readonly verdictOfAction = new Map<string, VerdictRecord['verdict']['kind']>();
  readonly approvedActions = new Set<string>();
  /** Customers with a lookup in the session's evidence. */
  readonly lookedUp = new Set<string>();
  /** A judge kill, or a hold skipped or timed out, reached the gate: it must have latched. */
  stoppedByVerdict = false;
  readonly operatorScripts = new Map<string, OperatorScript>();
  private readonly polls = new Map<string, number>();

  private seen(hold: HoldRecord | undefined): void {
    if (hold?.status === 'approved') this.approvedActions.add(hold.actionId);
    if (hold?.status === 'skipped' || hold?.status === 'timed_out') this.stoppedByVerdict = true;
  }
  private scriptOf(actionId: string): OperatorScript | undefined {
    const callId = this.callOfAction.get(actionId);
    return callId === undefined ? undefined : this.operatorScripts.get(callId);
  }

  override async recordEvidence(evidence: Parameters<FaultyStore['recordEvidence']>[0]) {
    const record = await super.recordEvidence(evidence);
    const input = record.input;
    if (record.toolName === LOOKUP && typeof input === 'object' && input !== null && 'customer_id' in input)
      this.lookedUp.add(String(input.customer_id));
    return record;
  }
  override async recordAction(action: Omit<ActionRecord, 'id' | 'createdAt'>) {
    const record = await super.recordAction(action);
    const callId = callIdOf(record.input);
    if (callId !== undefined) this.callOfAction.set(record.id, callId);
    return record;
  }
  override async recordVerdict(verdict: Omit<VerdictRecord, 'id' | 'decidedAt'>) {
    const record = await super.recordVerdict(verdict);
    this.verdictOfAction.set(record.actionId, record.verdict.kind);
    if (record.verdict.kind === 'kill') this.stoppedByVerdict = true;
    return record;
  }
  override createHold(actionId: string, sessionId: string, deadline: Date) {
    // No operator will come: let the deadline be past, so the engine times the hold out at once.
    const none = this.scriptOf(actionId)?.decision === 'none';
    return super.createHold(actionId, sessionId, none ? new Date(Date.now() - 1000) : deadline);
  }
  override async getHold(id: string) {
    const poll = this.polls.get(id) ?? 0;
    this.polls.set(id, poll + 1);
    const pending = await this.inner.getHold(id);
    const script = pending && this.scriptOf(pending.actionId);
    if (script && script.decision !== 'none' && poll === script.afterPolls)
      await this.inner.decideHold(id, script.decision, 'operator-ana', `scripted ${script.decision}`);
    const hold = await super.getHold(id);
    this.seen(hold);
    return hold;
  }
  override async decideHold(...args: Parameters<FaultyStore['decideHold']>) {
    const hold = await super.decideHold(...args);
    this.seen(hold);
    return hold;
  }
}

function toolCall(generated: Call, id: string): { tool: string; input: Record<string, unknown> } {
  if (generated.type === 'lookup') return { tool: LOOKUP, input: { customer_id: generated.customer } };
  if (generated.type === 'other') return { tool: generated.tool, input: { call_id: id } };
  const input: Record<string, unknown> = { customer_id: generated.customer, reasoning: 'asked', call_id: id };
  if (generated.input !== 'malformed') input.amount = generated.amount;
  if (generated.input === 'explodes') input.explode = true;
  return { tool: REFUND, input };
}

/** How often each path was taken over the whole run, so the property is shown not to hold vacuously. */
const tally = {
  passRan: 0,
  approvedRan: 0,
  refusedWrites: 0,
  latched: 0,
  runsWithFaults: 0,
  refusedAfterStop: 0,
};

let base: NovarchTestBase;
beforeAll(async () => {
  base = await openNovarchTestBase();
});
afterAll(() => base.close());

async function runScenario(generated: typeof scenario extends fc.Arbitrary<infer T> ? T : never) {
  const store = new ObservedStore(base.store);
  const engine = testEngine(base, store, { pollIntervalMs: 1 });
  const { session, gate } = await openTestGate(engine);
  for (const fault of generated.faults) store.fail(fault.method, fault.nth);
  const hooks = gateHooks(gate);
  let operatorKilled = false;
  let nextId = 0;
  const warmUp = generated.warmUp.map((customer) => ({
    operatorKill: false,
    calls: [{ type: 'lookup' as const, customer, fails: false }],
  }));
  for (const turn of [...warmUp, ...generated.turns]) {
    if (turn.operatorKill) {
      await base.store.killSession(session.record.id, 'operator stop');
      operatorKilled = true;
    }
    const stoppedBefore = operatorKilled || store.stoppedByVerdict;
    const lookedUpBefore = new Set(store.lookedUp);
    const calls = turn.calls.map((generatedCall) => {
      const id = `call-${nextId++}`;
      if (generatedCall.type === 'refund')
        store.operatorScripts.set(id, {
          decision: generatedCall.operator,
          afterPolls: generatedCall.operatorAfterPolls,
        });
      return { id, generated: generatedCall, ...toolCall(generatedCall, id) };
    });
    // The hooks must never throw: a rejection here fails the property.
    const outputs = await Promise.all(calls.map((each) => hooks.pre(each.tool, each.input, each.id)));
    for (const [index, each] of calls.entries()) {
      const output = outputs[index] ?? {};
      const reason = denyReason(output);
      const ran = reason === undefined;
      // Novarch narrows, never widens: it denies or has no opinion, nothing else.
      expect(ran ? isNoOpinion(output) : reason?.startsWith('Novarch: ')).toBe(true);
      if (stoppedBefore) {
        expect(ran, `${each.tool} ran after the session was stopped`).toBe(false);
        tally.refusedAfterStop++;
      }
      if (each.tool === DELETE_ACCOUNT || each.tool === 'Bash') expect(ran).toBe(false);
      if (each.generated.type !== 'refund') continue;
      if (!ran) {
        tally.refusedWrites++;
        continue;
      }
      // A write ran: its action was judged pass, or an operator approved its hold.
      expect(each.generated.input).toBe('ok');
      const actions = [...store.callOfAction].filter(([, callId]) => callId === each.id);
      expect(actions).toHaveLength(1);
      const actionId = actions[0]?.[0] ?? '';
      const passed = store.verdictOfAction.get(actionId) === 'pass';
      const approved = store.approvedActions.has(actionId);
      expect(passed || approved, `write ${each.id} ran without a pass or an approval`).toBe(true);
      // And the team rules agree: a lookup of the same customer came first; over 500 was approved.
      expect(lookedUpBefore.has(each.generated.customer)).toBe(true);
      if (each.generated.amount > 500) expect(approved).toBe(true);
      if (approved) tally.approvedRan++;
      else tally.passRan++;
    }
    for (const [index, each] of calls.entries()) {
      if (denyReason(outputs[index] ?? {}) !== undefined) continue;
      if (each.generated.type === 'lookup' && each.generated.fails)
        await hooks.postFailure(each.tool, each.input, each.id, 'lookup failed');
      else await hooks.post(each.tool, each.input, each.id, `result of ${each.id}`);
    }
  }
  // Every stop that reached the gate latched it; the gate latches for no other reason.
  if (store.stoppedByVerdict) expect(gate.killed).toBe(true);
  if (gate.killed) {
    expect(store.stoppedByVerdict || operatorKilled).toBe(true);
    expect(() => gate.raiseIfKilled()).toThrow(/^Novarch killed session/);
    tally.latched++;
  }
  tally.runsWithFaults += generated.faults.length > 0 ? 1 : 0;
}

describe('NovarchHookGate property', () => {
  /**
   * Proves, over random turns of concurrent tool calls (lookups that succeed or fail, refunds of
   * random customers and amounts with well-formed, malformed or builder-breaking inputs, unmapped
   * and allowlisted tools), random operator decisions (approve, deny, skip, none → timeout) and
   * kills, and random store failures at any step: no write runs unless the engine's verdict was
   * pass or its hold was approved (and the rules' own reading agrees); nothing runs once the
   * session was stopped; the hooks never throw and never say more than deny or no opinion.
   */
  it('never lets a write run without a pass or an approval, nor anything after a stop', async () => {
    await fc.assert(fc.asyncProperty(scenario, runScenario), { numRuns: 100 });
    expect(tally.passRan).toBeGreaterThan(0);
    expect(tally.approvedRan).toBeGreaterThan(0);
    expect(tally.refusedWrites).toBeGreaterThan(0);
    expect(tally.latched).toBeGreaterThan(0);
    expect(tally.refusedAfterStop).toBeGreaterThan(0);
    expect(tally.runsWithFaults).toBeGreaterThan(0);
  }, 30_000);
});
