import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultableMethod } from '../gate/support/faulty-store.js';
import {
  DELETE_ACCOUNT,
  type GovernorBase,
  LOOKUP,
  openGovernorBase,
  openGovernorWorld,
  REFUND,
} from './support/governor-world.js';
import { type CallScript, ObservedStore } from './support/observed-store.js';

// Random agent loops through one NovarchToolGovernor each, on the real SQLite store (so holds
// keep their first-decision-wins semantics), shared by all runs, each run on its own session. An
// ObservedStore (support/observed-store.ts) injects the run's faults, plays the operator (decides
// holds, kills the session while a write is judged), aborts calls while they are held, and notes
// what the engine was told. Every `execute` checks, as it is called, that it may run.

const CUSTOMERS = ['C1', 'C2'] as const;

const lookupCall = fc.record({
  type: fc.constant('lookup' as const),
  customer: fc.constantFrom(...CUSTOMERS),
  result: fc.constantFrom('ok', 'ok', 'ok', 'ok', 'throws', 'flagged'),
});
const refundCall = fc.record({
  type: fc.constant('refund' as const),
  customer: fc.constantFrom(...CUSTOMERS),
  amount: fc.constantFrom(50, 500, 501, 900),
  input: fc.constantFrom('ok', 'ok', 'ok', 'ok', 'malformed', 'explodes'),
  /** How a hold ends: an operator decision, the deadline, or the loop aborting the call. */
  end: fc.constantFrom('approved', 'approved', 'approved', 'denied', 'skipped', 'timeout', 'abort', 'abort'),
  /** After how many polls of the hold the operator decides (or the abort comes). */
  afterPolls: fc.integer({ min: 0, max: 2 }),
  abortedBefore: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  /** An operator kills the session while this write is judged, held, or right before its release. */
  killDuring: fc.constantFrom<CallScript['killDuring']>(
    ...(Array(9).fill('none') as 'none'[]),
    'judge',
    'hold',
    'release',
  ),
});
const otherCall = fc.record({
  type: fc.constant('other' as const),
  tool: fc.constantFrom(DELETE_ACCOUNT, 'ToolSearch'),
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
  warmUp: fc.constantFrom<(typeof CUSTOMERS)[number][]>(['C1', 'C2'], ['C1', 'C2'], ['C1', 'C2'], ['C2'], []),
  turns: fc.array(
    fc.record({
      /** An operator kills the session (`novarch sessions kill`) before this turn. */
      operatorKill: fc.integer({ min: 0, max: 15 }).map((n) => n === 0),
      /** Tool calls of one model step (mostly one), run concurrently as an agent loop runs them. */
      calls: fc.oneof(
        { arbitrary: fc.tuple(call), weight: 3 },
        { arbitrary: fc.array(call, { minLength: 2, maxLength: 3 }), weight: 1 },
      ),
    }),
    { minLength: 1, maxLength: 8 },
  ),
  /** Store calls that fail (none in about half the runs). */
  faults: fc.oneof(
    fc.constant([]),
    fc.array(fc.record({ method: fc.constantFrom(...FAULTABLE), nth: fc.nat({ max: 5 }) }), {
      minLength: 1,
      maxLength: 3,
    }),
  ),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** The tool call a generated call makes: its tool, input and (for refunds) its script. */
function toolCall(generated: Call, id: string) {
  if (generated.type === 'lookup') return { tool: LOOKUP, input: { customer_id: generated.customer } };
  if (generated.type === 'other') return { tool: generated.tool, input: { call_id: id } };
  const input: Record<string, unknown> = { customer_id: generated.customer, reasoning: 'asked', call_id: id };
  if (generated.input !== 'malformed') input.amount = generated.amount;
  if (generated.input === 'explodes') input.explode = true;
  return { tool: REFUND, input };
}

function scriptOf(generated: Extract<Call, { type: 'refund' }>, signal: AbortController): CallScript {
  // Nobody decides a hold whose call is aborted: a decision racing the abort is a unit test's case.
  const aborted = generated.abortedBefore || generated.end === 'abort';
  return {
    decision: aborted || generated.end === 'timeout' || generated.end === 'abort' ? 'none' : generated.end,
    afterPolls: generated.afterPolls,
    pastDeadline: !aborted && generated.end === 'timeout',
    ...(generated.end === 'abort' && !generated.abortedBefore ? { abortWhileHeld: signal } : {}),
    killDuring: generated.killDuring,
  };
}

/** How often each path was taken over the whole run, so the property is shown not to hold vacuously. */
const tally = {
  passRan: 0,
  approvedRan: 0,
  refusedWrites: 0,
  latched: 0,
  refusedAfterStop: 0,
  abortedWhileHeld: 0,
  killedWhileJudged: 0,
  killedBeforeRelease: 0,
  killedWhileHeld: 0,
  runsWithFaults: 0,
};

let base: GovernorBase;
beforeAll(async () => {
  base = await openGovernorBase();
});
afterAll(() => base.close());

async function runScenario(generated: Scenario) {
  const store = new ObservedStore(base.store);
  const world = await openGovernorWorld(base, { store, pollIntervalMs: 1 });
  const { governor } = world;
  store.sessionId = world.sessionId;
  for (const fault of generated.faults) store.fail(fault.method, fault.nth);
  /** What an execute found wrong when it was called. */
  const violations: string[] = [];
  const executed = new Set<string>();
  let nextId = 0;
  const warmUp = generated.warmUp.map((customer) => ({
    operatorKill: false,
    calls: [{ type: 'lookup' as const, customer, result: 'ok' as const }],
  }));
  for (const turn of [...warmUp, ...generated.turns]) {
    if (turn.operatorKill) {
      await base.store.killSession(world.sessionId, 'operator stop');
      store.operatorKilled = true;
    }
    const stoppedBefore = store.operatorKilled || governor.killed;
    const calls = turn.calls.map((generatedCall) => {
      const id = `call-${nextId++}`;
      const controller = new AbortController();
      if (generatedCall.type === 'refund') {
        store.scripts.set(id, scriptOf(generatedCall, controller));
        if (generatedCall.abortedBefore) controller.abort();
      }
      return { id, generated: generatedCall, controller, ...toolCall(generatedCall, id) };
    });
    const outcomes = await Promise.all(
      calls.map((each) =>
        governor
          .run({ toolName: each.tool, input: each.input, signal: each.controller.signal }, () => {
            // Checked as the tool is let through: nothing runs after a latch, no write runs
            // aborted or without a pass or an approval that the team rules agree with.
            if (governor.killed) violations.push(`${each.id} ran after the session latched`);
            executed.add(each.id);
            if (each.generated.type === 'refund') {
              if (each.controller.signal.aborted) violations.push(`${each.id} ran although aborted`);
              const actions = [...store.callOfAction].filter(([, callId]) => callId === each.id);
              const actionId = actions[0]?.[0] ?? '';
              const passed = store.verdictOfAction.get(actionId) === 'pass';
              const approved = store.approvedActions.has(actionId);
              if (actions.length !== 1 || !(passed || approved))
                violations.push(`write ${each.id} ran without a pass or an approval`);
              if (!store.releasedActions.has(actionId))
                violations.push(`write ${each.id} ran without being released by the store`);
              if (each.generated.input !== 'ok') violations.push(`write ${each.id} ran with a bad input`);
              if (!store.lookedUp.has(each.generated.customer))
                violations.push(`write ${each.id} ran without a successful lookup (TEAM-1)`);
              if (each.generated.amount > 500 && !approved)
                violations.push(`write ${each.id} over 500 ran without an approval (TEAM-2)`);
              if (store.killedFor.has(each.id)) violations.push(`write ${each.id} ran past a kill`);
              if (approved) tally.approvedRan++;
              else tally.passRan++;
            }
            if (each.generated.type === 'lookup' && each.generated.result === 'throws')
              throw new Error('lookup failed');
            return each.generated.type === 'lookup' && each.generated.result === 'flagged'
              ? { isError: true }
              : 'ok';
          })
          .catch((error: unknown) => {
            // Only an execute's own throw may reject the run.
            expect(String(error)).toBe('Error: lookup failed');
            return { kind: 'threw' as const };
          }),
      ),
    );
    for (const [index, each] of calls.entries()) {
      const outcome = outcomes[index];
      const ran = outcome?.kind === 'ran' || outcome?.kind === 'threw';
      expect(ran, `${each.id}: the outcome says whether execute was called`).toBe(executed.has(each.id));
      if (outcome?.kind === 'refused' || outcome?.kind === 'killed')
        expect(outcome.reason.startsWith('Novarch: ')).toBe(true);
      if (stoppedBefore) {
        expect(ran, `${each.tool} ran after the session was stopped`).toBe(false);
        expect(outcome?.kind).not.toBe('ran');
        tally.refusedAfterStop++;
      }
      if (each.generated.type === 'other') expect(ran).toBe(false);
      if (each.generated.type === 'refund') {
        if (!ran) tally.refusedWrites++;
        if (each.generated.end === 'abort' && store.scripts.get(each.id)?.abortWhileHeld?.signal.aborted)
          tally.abortedWhileHeld++;
        if (store.killedFor.has(each.id)) {
          // A kill stored while the write was judged, held or about to be released: it never runs
          // (killed; or refused when a deny, an abort or a store failure came first).
          expect(ran, `${each.id} ran after a kill during its judgement`).toBe(false);
          if (outcome?.kind !== 'killed') continue;
          if (each.generated.killDuring === 'judge') tally.killedWhileJudged++;
          if (each.generated.killDuring === 'release') tally.killedBeforeRelease++;
          if (each.generated.killDuring === 'hold') tally.killedWhileHeld++;
        }
      }
    }
    // Every stop the engine reported latched the governor; it latches for no other reason.
    if (store.stops > 0) expect(governor.killed).toBe(true);
    if (governor.killed) expect(store.stops > 0 || store.operatorKilled).toBe(true);
  }
  expect(violations).toEqual([]);
  if (governor.killed) {
    expect(() => governor.raiseIfKilled()).toThrow(/^Novarch killed session/);
    tally.latched++;
  }
  tally.runsWithFaults += generated.faults.length > 0 ? 1 : 0;
}

describe('NovarchToolGovernor property', () => {
  /**
   * Proves, over random steps of concurrent tool calls (lookups that succeed, throw or report an
   * error; refunds of random customers and amounts with well-formed, malformed or builder-breaking
   * inputs; unmapped tools), random hold endings (approve, deny, skip, deadline, abort), calls
   * aborted before they start, operator kills between steps and while a write is judged, held, or
   * between the judge's pass (or the approval) and the release (issue 14 item 2), and random store
   * failures at any step: no write's execute is called without a pass or an approval (that the team
   * rules agree with) and a release by the store, nor after an abort or a kill; a kill stored
   * during a write's judgement always stops that write; nothing executes after a latch; every
   * stop latches; refusals are `Novarch: ...` text; only an execute's own error rejects.
   */
  it('never runs a write without a pass or an approval, nor anything after a stop', async () => {
    // A fixed seed: the tallies below check that the runs covered every race, which a random seed
    // misses now and then (a kill landing while a write is held is one case in a few hundred).
    // FC_SEED=<n> explores other runs.
    await fc.assert(fc.asyncProperty(scenario, runScenario), {
      numRuns: 200,
      seed: Number(process.env.FC_SEED ?? 20_261_201),
    });
    expect(tally.passRan).toBeGreaterThan(0);
    expect(tally.approvedRan).toBeGreaterThan(0);
    expect(tally.refusedWrites).toBeGreaterThan(0);
    expect(tally.latched).toBeGreaterThan(0);
    expect(tally.refusedAfterStop).toBeGreaterThan(0);
    expect(tally.abortedWhileHeld).toBeGreaterThan(0);
    expect(tally.killedWhileJudged).toBeGreaterThan(0);
    expect(tally.killedBeforeRelease).toBeGreaterThan(0);
    expect(tally.killedWhileHeld).toBeGreaterThan(0);
    expect(tally.runsWithFaults).toBeGreaterThan(0);
  }, 60_000);
});
