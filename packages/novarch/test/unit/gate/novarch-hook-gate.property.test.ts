import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HoldRecord, HoldStatus, VerdictRecord } from '../../../src/index.js';
import { type FaultableMethod, FaultyStore } from './support/faulty-store.js';
import {
  assistantToolUses,
  denyReason,
  gateHooks,
  isNoOpinion,
  resultMessage,
  toolResultMessage,
} from './support/hook-calls.js';
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
  /** ran, failed (PostToolUseFailure), or denied by the user's permissions (never ran: no Post hook). */
  outcome: fc.constantFrom('ran', 'ran', 'failed', 'denied'),
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
  /** An operator kills the session while this write is judged, or while it is held (item 2). */
  killDuring: fc.constantFrom('none', 'none', 'none', 'none', 'judge', 'hold'),
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
  'proposeAction',
  'recordVerdict',
  'releaseAction',
  'recordRefusal',
  'createHold',
  'getHold',
  'decideHold',
];
const scenario = fc.record({
  /** Customers looked up (one call per turn) before the random turns, so that writes often pass. */
  warmUp: fc.constantFrom<Customer[]>(['C1', 'C2'], ['C1', 'C2'], ['C2'], []),
  /** Whether the gate sees the message stream (`gate.track`); without it, the in-flight rule applies. */
  tracked: fc.boolean(),
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
  killDuring: 'none' | 'judge' | 'hold';
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
  /** Actions the store let run (`releaseAction` released them): the only writes that may run. */
  readonly releasedActions = new Set<string>();
  /** A judge kill, or a hold skipped or timed out, reached the gate: it must have latched. */
  stoppedByVerdict = false;
  /** An operator kill was stored while a write was judged or held (item 2). */
  killedDuringJudgement = false;
  /** A read's evidence failed to store: from then on no write may run (item 8). */
  evidenceFailed = false;
  /** A read denied by the user's permissions was stored as evidence (item 1: must never happen). */
  deniedReadStored = false;
  sessionId = '';
  readonly operatorScripts = new Map<string, OperatorScript>();
  private readonly polls = new Map<string, number>();

  private async killNow(): Promise<void> {
    await this.inner.killSession(this.sessionId, 'operator stop during judgement');
    this.killedDuringJudgement = true;
  }

  private seen(hold: HoldRecord | undefined): void {
    if (hold?.status === 'approved') this.approvedActions.add(hold.actionId);
    if (hold?.status === 'skipped' || hold?.status === 'timed_out') this.stoppedByVerdict = true;
  }
  private scriptOf(actionId: string): OperatorScript | undefined {
    const callId = this.callOfAction.get(actionId);
    return callId === undefined ? undefined : this.operatorScripts.get(callId);
  }

  override async recordEvidence(evidence: Parameters<FaultyStore['recordEvidence']>[0]) {
    let record: Awaited<ReturnType<FaultyStore['recordEvidence']>>;
    try {
      record = await super.recordEvidence(evidence);
    } catch (error) {
      this.evidenceFailed = true;
      throw error;
    }
    const input = record.input;
    if (typeof input === 'object' && input !== null && 'via' in input && input.via === 'denied')
      this.deniedReadStored = true;
    if (record.toolName === LOOKUP && typeof input === 'object' && input !== null && 'customer_id' in input)
      this.lookedUp.add(String(input.customer_id));
    return record;
  }
  override async proposeAction(action: Parameters<FaultyStore['proposeAction']>[0]) {
    const proposal = await super.proposeAction(action);
    const callId = callIdOf(proposal.action.input);
    if (callId !== undefined) this.callOfAction.set(proposal.action.id, callId);
    // The kill check, the action and the evidence are stored; the judgement is under way: a kill
    // now lands between the proposal's kill check and the release's.
    if (proposal.open && this.scriptOf(proposal.action.id)?.killDuring === 'judge') await this.killNow();
    return proposal;
  }
  override async releaseAction(release: Parameters<FaultyStore['releaseAction']>[0]) {
    const result = await super.releaseAction(release);
    if (release.verdict !== undefined) this.verdictOfAction.set(release.actionId, 'pass');
    if (result.released) this.releasedActions.add(release.actionId);
    return result;
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
    if (script?.killDuring === 'hold' && poll === 0) await this.killNow();
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
  if (generated.type === 'lookup')
    return {
      tool: LOOKUP,
      input: {
        customer_id: generated.customer,
        ...(generated.outcome === 'denied' ? { via: 'denied' } : {}),
      },
    };
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
  refusedBesideOthers: 0,
  refusedAfterKillDuringJudgement: 0,
  refusedOnLostEvidence: 0,
  deniedReads: 0,
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
  store.sessionId = session.record.id;
  for (const fault of generated.faults) store.fail(fault.method, fault.nth);
  const hooks = gateHooks(gate);
  let operatorKilled = false;
  let nextId = 0;
  const warmUp = generated.warmUp.map((customer) => ({
    operatorKill: false,
    calls: [{ type: 'lookup' as const, customer, outcome: 'ran' as const }],
  }));
  for (const [turnIndex, turn] of [...warmUp, ...generated.turns].entries()) {
    if (turn.operatorKill) {
      await base.store.killSession(session.record.id, 'operator stop');
      operatorKilled = true;
    }
    const stoppedBefore = operatorKilled || store.stoppedByVerdict || store.killedDuringJudgement;
    const evidenceLostBefore = store.evidenceFailed;
    const lookedUpBefore = new Set(store.lookedUp);
    const calls = turn.calls.map((generatedCall) => {
      const id = `call-${nextId++}`;
      if (generatedCall.type === 'refund')
        store.operatorScripts.set(id, {
          decision: generatedCall.operator,
          afterPolls: generatedCall.operatorAfterPolls,
          killDuring: generatedCall.killDuring,
        });
      return { id, generated: generatedCall, ...toolCall(generatedCall, id) };
    });
    // The CLI streams a message block by block and fires each block's PreToolUse as soon as the
    // block is complete, while the next one still streams: observe block i, start hook i.
    const pending = calls.map((each) => {
      if (generated.tracked) gate.observe(assistantToolUses(`msg-${turnIndex}`, [each.id]));
      return hooks.pre(each.tool, each.input, each.id);
    });
    // The hooks must never throw: a rejection here fails the property.
    const outputs = await Promise.all(pending);
    const killedDuringTurn = store.killedDuringJudgement;
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
      const script = store.operatorScripts.get(each.id);
      if (!ran) {
        tally.refusedWrites++;
        if (calls.length > 1 && generated.tracked && index > 0) tally.refusedBesideOthers++;
        if (script?.killDuring !== 'none' && killedDuringTurn) tally.refusedAfterKillDuringJudgement++;
        if (evidenceLostBefore) tally.refusedOnLostEvidence++;
        continue;
      }
      // Item 5: a write whose message already carried another call never runs.
      if (generated.tracked) expect(index, `write ${each.id} ran beside other calls of its turn`).toBe(0);
      // Item 8: once evidence was lost, no write is judged on what is left.
      expect(evidenceLostBefore, `write ${each.id} ran on incomplete evidence`).toBe(false);
      // A write ran: its action was judged pass, or an operator approved its hold, and the store
      // released it (atomically with the kill check: a kill during judgement wins, item 2).
      expect(each.generated.input).toBe('ok');
      const actions = [...store.callOfAction].filter(([, callId]) => callId === each.id);
      expect(actions).toHaveLength(1);
      const actionId = actions[0]?.[0] ?? '';
      const passed = store.verdictOfAction.get(actionId) === 'pass';
      const approved = store.approvedActions.has(actionId);
      expect(passed || approved, `write ${each.id} ran without a pass or an approval`).toBe(true);
      expect(store.releasedActions.has(actionId), `write ${each.id} ran without being released`).toBe(true);
      expect(script?.killDuring === 'none' || !killedDuringTurn, `write ${each.id} ran after a kill`).toBe(
        true,
      );
      // And the team rules agree, on evidence that really executed (item 1): a lookup of the same
      // customer that ran came first; over 500 was approved.
      expect(lookedUpBefore.has(each.generated.customer)).toBe(true);
      if (each.generated.amount > 500) expect(approved).toBe(true);
      if (approved) tally.approvedRan++;
      else tally.passRan++;
    }
    for (const [index, each] of calls.entries()) {
      if (denyReason(outputs[index] ?? {}) !== undefined) continue;
      if (each.generated.type === 'lookup' && each.generated.outcome === 'denied') {
        // The user's permission rules refuse it after the gate: no Post hook, only the tool result.
        tally.deniedReads++;
        gate.observe(toolResultMessage(each.id, 'Permission to use lookup_customer has been denied.', true));
      } else if (each.generated.type === 'lookup' && each.generated.outcome === 'failed')
        await hooks.postFailure(each.tool, each.input, each.id, 'lookup failed');
      else await hooks.post(each.tool, each.input, each.id, `result of ${each.id}`);
      if (generated.tracked) gate.observe(toolResultMessage(each.id, `result of ${each.id}`, false));
    }
    if (!generated.tracked) gate.observe(resultMessage());
  }
  await gate.close();
  expect(store.deniedReadStored, 'a read that never ran was stored as evidence').toBe(false);
  // Every stop that reached the gate latched it; the gate latches for no other reason.
  if (store.stoppedByVerdict) expect(gate.killed).toBe(true);
  if (gate.killed) {
    expect(store.stoppedByVerdict || operatorKilled || store.killedDuringJudgement).toBe(true);
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
   * Issue 14 adds: evidence is what executed (a read the user's permissions denied is never
   * evidence, item 1); a kill stored while a write is judged or held wins over its pass or
   * approval (item 2); a write whose message carried another call never runs (item 5); once a
   * read's evidence was lost, no write runs (item 8).
   */
  it('never lets a write run without a pass or an approval, nor anything after a stop', async () => {
    await fc.assert(fc.asyncProperty(scenario, runScenario), { numRuns: 150 });
    expect(tally.passRan).toBeGreaterThan(0);
    expect(tally.approvedRan).toBeGreaterThan(0);
    expect(tally.refusedWrites).toBeGreaterThan(0);
    expect(tally.latched).toBeGreaterThan(0);
    expect(tally.refusedAfterStop).toBeGreaterThan(0);
    expect(tally.runsWithFaults).toBeGreaterThan(0);
    expect(tally.refusedBesideOthers).toBeGreaterThan(0);
    expect(tally.refusedAfterKillDuringJudgement).toBeGreaterThan(0);
    expect(tally.refusedOnLostEvidence).toBeGreaterThan(0);
    expect(tally.deniedReads).toBeGreaterThan(0);
  }, 60_000);
});
