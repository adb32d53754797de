import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NovarchKillError } from '../../../src/index.js';
import {
  eventually,
  type GovernorBase,
  gate,
  LOOKUP,
  openGovernorBase,
  openGovernorWorld,
  REFUND,
} from './support/governor-world.js';

// The verdict table through NovarchToolGovernor, as an agent loop of our own uses it: each tool's
// execute wrapped in governor.run, against a real SQLite store (sometimes wrapped to fail) and the
// team rules in support/governor-world.ts. An "operator" decides holds and kills sessions through
// the store API, as the novarch CLI does from another process.

let base: GovernorBase;
beforeAll(async () => {
  base = await openGovernorBase();
});
afterAll(() => base.close());

/** Waits for the session's pending hold to appear, as an operator watching `novarch holds list` would. */
function pendingHold(sessionId: string) {
  return eventually(async () => (await base.store.listHolds({ status: 'pending', sessionId }))[0]);
}

describe('NovarchToolGovernor reads', () => {
  /** Proves a read runs and is recorded as evidence: input, output, timing, not failed. */
  it('runs a read and records it as evidence', async () => {
    const world = await openGovernorWorld(base);
    expect(await world.lookUp('C1')).toEqual({ kind: 'ran', output: `${LOOKUP} ok`, isError: false });
    expect(world.executed).toEqual([{ tool: LOOKUP, input: { customer_id: 'C1' } }]);
    const [evidence] = await base.store.listEvidence(world.sessionId);
    expect(evidence).toMatchObject({
      toolName: LOOKUP,
      input: { customer_id: 'C1' },
      output: `${LOOKUP} ok`,
      isError: false,
    });
    expect(Date.parse(evidence?.finishedAt ?? '')).toBeGreaterThanOrEqual(
      Date.parse(evidence?.startedAt ?? ''),
    );
  });

  /**
   * Proves a read that throws, one whose output reports an error and one aborted while it ran are
   * recorded as failed, and that a rule citing only successful lookups does not count them: the
   * refund that relies on them is killed.
   */
  it('records failed reads as failed, and rules that exclude them do not count them', async () => {
    const world = await openGovernorWorld(base, {
      governor: { isErrorOutput: (output) => output === 'down' },
    });
    await expect(world.lookUp('C1', { behaviour: 'throw' })).rejects.toThrow(`${LOOKUP} service down`);
    const flagged = await world.governor.run(
      { toolName: LOOKUP, input: { customer_id: 'C1' } },
      () => 'down',
    );
    expect(flagged).toEqual({ kind: 'ran', output: 'down', isError: true });
    const controller = new AbortController();
    const slow = gate();
    const aborted = world.lookUp('C1', { signal: controller.signal, behaviour: slow.promise });
    controller.abort();
    slow.open();
    expect(await aborted).toMatchObject({ kind: 'ran', isError: true });
    const evidence = await base.store.listEvidence(world.sessionId);
    expect(evidence.map(({ output, isError }) => ({ output, isError }))).toEqual([
      { output: `${LOOKUP} service down`, isError: true },
      { output: 'down', isError: true },
      { output: `${LOOKUP} ok`, isError: true },
    ]);
    const outcome = await world.refund('C1', 50);
    expect(outcome).toMatchObject({
      kind: 'killed',
      reason: expect.stringMatching(/^Novarch: refused: TEAM-1/),
    });
  });

  /** Proves the default error check is the MCP convention, `{ isError: true }`. */
  it('tells a failed output by its isError flag by default', async () => {
    const world = await openGovernorWorld(base);
    const output = { content: [], isError: true };
    expect(await world.governor.run({ toolName: LOOKUP, input: {} }, async () => output)).toEqual({
      kind: 'ran',
      output,
      isError: true,
    });
  });

  /** Proves evidence lost to the store refuses the next write (issue 24: it was judged without it). */
  it('lets a read run when its evidence cannot be stored, and refuses the next write as evidence incomplete', async () => {
    const world = await openGovernorWorld(base, { governor: { warn: () => {} } });
    world.store.fail('recordEvidence');
    expect(await world.lookUp('C1')).toMatchObject({ kind: 'ran' });
    expect(await world.refund('C1', 50)).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/^Novarch: evidence incomplete: /),
    });
    expect(world.governor.killed).toBe(false);
    expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP]);
  });
});

describe('NovarchToolGovernor verdicts', () => {
  /** Proves a write the judge passes runs, with its verdict and the agent's reasoning audited. */
  it('judge pass: the write runs', async () => {
    const world = await openGovernorWorld(base);
    await world.lookUp('C1');
    expect(await world.refund('C1', 120)).toEqual({ kind: 'ran', output: `${REFUND} ok`, isError: false });
    expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP, REFUND]);
    const [entry] = await base.store.audit({ sessionId: world.sessionId });
    expect(entry?.verdict?.verdict).toMatchObject({
      kind: 'pass',
      citations: { ruleIds: ['TEAM-1', 'TEAM-2'] },
    });
    expect(entry?.action).toMatchObject({
      toolName: REFUND,
      actionType: 'issue_refund',
      reasoning: 'customer asked',
    });
    expect(world.governor.killed).toBe(false);
  });

  /** Proves an error thrown by a passed write's execute reaches the loop, and stops nothing. */
  it('rethrows what a passed write threw', async () => {
    const world = await openGovernorWorld(base);
    await world.lookUp('C1');
    await expect(world.refund('C1', 120, { behaviour: 'throw' })).rejects.toThrow(`${REFUND} service down`);
    expect(world.governor.killed).toBe(false);
  });

  /**
   * Proves a judge kill refuses the write, latches the session (stored as killed) and refuses
   * every later call, reads included, without running or judging it; raiseIfKilled throws.
   */
  it('judge kill: refused, latched, and every later call refused', async () => {
    const world = await openGovernorWorld(base);
    const outcome = await world.refund('C2', 50);
    expect(outcome).toMatchObject({ kind: 'killed', citations: { ruleIds: ['TEAM-1'] } });
    expect(outcome.kind === 'killed' && outcome.reason).toMatch(/^Novarch: refused: TEAM-1 /);
    expect(world.governor.killed).toBe(true);
    expect(world.governor.killReason()).toMatch(/^TEAM-1 /);
    expect((await base.store.getSession(world.sessionId))?.killReason).toBe(world.governor.killReason());
    expect(() => world.governor.raiseIfKilled()).toThrow(NovarchKillError);
    expect(() => world.governor.raiseIfKilled()).toThrow(/^Novarch killed session .* at action .*: TEAM-1/);

    const stopped = `Novarch: this session was stopped (${world.governor.killReason()}); no further tool calls run`;
    expect(await world.lookUp('C2')).toMatchObject({ kind: 'killed', reason: stopped });
    expect(await world.refund('C2', 50)).toMatchObject({ kind: 'killed', reason: stopped });
    expect(world.executed).toEqual([]);
    expect(await base.store.audit({ sessionId: world.sessionId })).toHaveLength(1);
  });

  /** Proves a held write waits for the operator and runs once approved. */
  it('hold approved: the write runs after an operator approves', async () => {
    const world = await openGovernorWorld(base);
    await world.lookUp('C3');
    const waiting = world.refund('C3', 900);
    const hold = await pendingHold(world.sessionId);
    expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP]);
    await base.store.decideHold(hold.id, 'approved', 'operator-ana', 'checked with finance');
    expect(await waiting).toMatchObject({ kind: 'ran' });
    expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP, REFUND]);
  });

  /** Proves an operator deny refuses with the rationale, does not latch, and the agent goes on. */
  it("hold denied: refused with the operator's rationale, and the session goes on", async () => {
    const world = await openGovernorWorld(base);
    await world.lookUp('C4');
    const waiting = world.refund('C4', 900);
    const hold = await pendingHold(world.sessionId);
    await base.store.decideHold(hold.id, 'denied', 'operator-ana', 'over the monthly limit');
    expect(await waiting).toEqual({
      kind: 'refused',
      reason: 'Novarch: an operator denied this action: over the monthly limit',
    });
    expect(world.governor.killed).toBe(false);
    expect((await base.store.getSession(world.sessionId))?.killedAt).toBeUndefined();
    expect(await world.refund('C4', 90)).toMatchObject({ kind: 'ran' });
    expect(world.executed.map((each) => each.input)).toEqual([
      { customer_id: 'C4' },
      { customer_id: 'C4', amount: 90, reasoning: 'customer asked' },
    ]);
  });

  /**
   * Proves the model's text before a write is its rationale on the hold when the input has no
   * `reasoning` field (trimmed, the end kept when long), and that a `reasoning` field still wins.
   */
  it("a held write's rationale is the model's text before the call, unless its input has reasoning", async () => {
    const world = await openGovernorWorld(base);
    await world.lookUp('C6');
    const held = async (input: Record<string, unknown>, modelText: string) => {
      const waiting = world.governor.run({ toolName: REFUND, input, modelText }, () => 'ran');
      const hold = await pendingHold(world.sessionId);
      await base.store.decideHold(hold.id, 'approved', 'operator-ana', 'fine');
      await waiting;
      const entries = await base.store.audit({ sessionId: world.sessionId });
      return entries.find((entry) => entry.action.id === hold.actionId)?.action.reasoning;
    };
    expect(
      await held(
        { customer_id: 'C6', amount: 900 },
        '\nThe customer was charged twice; refunding the duplicate.\n',
      ),
    ).toBe('The customer was charged twice; refunding the duplicate.');
    expect(
      await held({ customer_id: 'C6', amount: 901, reasoning: 'duplicate charge' }, 'Refunding now.'),
    ).toBe('duplicate charge');
    const long = `${'a'.repeat(5_000)} and so I refund.`;
    const cut = await held({ customer_id: 'C6', amount: 902 }, long);
    expect(cut).toBe(`…${long.slice(-4_000)}`);
    expect(await held({ customer_id: 'C6', amount: 903 }, '   ')).toBeUndefined();
  });

  /** Proves a skipped or timed-out hold refuses the write and stops the session (fail-closed). */
  it.each([
    ['skipped', 'an operator skipped the hold'],
    ['timed_out', 'no operator decided the hold in time'],
  ] as const)('hold %s: refused and latched', async (status, rationale) => {
    // With a hold window of 0 s nobody can decide in time: the hold times out at once.
    const world = await openGovernorWorld(base, { holdWindowSeconds: status === 'timed_out' ? 0 : 30 });
    await world.lookUp('C5');
    const waiting = world.refund('C5', 900);
    if (status === 'skipped') {
      const hold = await pendingHold(world.sessionId);
      await base.store.decideHold(hold.id, 'skipped', 'operator-ana', 'not mine');
    }
    expect(await waiting).toMatchObject({
      kind: 'killed',
      reason: `Novarch: ${rationale}; the session is stopped`,
    });
    expect(world.governor.killReason()).toBe(rationale);
    expect(await base.store.getSession(world.sessionId)).toMatchObject({ killReason: rationale });
    expect(await base.store.listHolds({ sessionId: world.sessionId })).toMatchObject([{ status }]);
    expect(await world.lookUp('C5')).toMatchObject({ kind: 'killed' });
    expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP]);
  });

  /**
   * Proves an abort while a write is held ends the wait at once (not at the deadline), closes the
   * hold so a later approval changes nothing, never runs the write, and stops the engine's polling.
   */
  it('hold with abort: stops waiting, closes the hold, and the write never runs', async () => {
    // A slow poll: an abort noticed only by the engine would take up to 0.8 s.
    const world = await openGovernorWorld(base, { pollIntervalMs: 800 });
    await world.lookUp('C6');
    const controller = new AbortController();
    const waiting = world.refund('C6', 900, { signal: controller.signal });
    const hold = await pendingHold(world.sessionId);
    controller.abort();
    expect(await waiting).toEqual({
      kind: 'refused',
      reason: 'Novarch: the call was aborted while this write was held; it did not run',
    });
    const late = await base.store.decideHold(hold.id, 'approved', 'operator-ana', 'too late');
    expect(late).toMatchObject({
      status: 'timed_out',
      decidedBy: 'novarch',
      rationale: 'the agent loop aborted the tool call while it was held; it did not run',
    });
    expect(world.governor.killed).toBe(false);
    // The engine's wait ends at its next poll; nothing polls after it.
    await new Promise((resolve) => setTimeout(resolve, 900));
    const polls = world.store.callsOf('getHold');
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(world.store.callsOf('getHold')).toBe(polls);
    expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP]);
  });

  /** Proves an approval stored just before the abort, not yet seen by the waiting call, does not run the write. */
  it('hold approved as the call is aborted: the approval stands, and the write does not run', async () => {
    const world = await openGovernorWorld(base, { pollIntervalMs: 800 });
    await world.lookUp('C6');
    const controller = new AbortController();
    const waiting = world.refund('C6', 900, { signal: controller.signal });
    const hold = await pendingHold(world.sessionId);
    await base.store.decideHold(hold.id, 'approved', 'operator-ana', 'fine');
    controller.abort();
    expect(await waiting).toEqual({
      kind: 'refused',
      reason: 'Novarch: the call was aborted while this write was held; it did not run',
    });
    expect(await base.store.getHold(hold.id)).toMatchObject({ status: 'approved' });
    expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP]);
  });

  /** Proves a write whose call was aborted before it could run is refused, even on a pass. */
  it('refuses a passed write whose call was aborted before it ran', async () => {
    const world = await openGovernorWorld(base);
    await world.lookUp('C7');
    const controller = new AbortController();
    controller.abort();
    expect(await world.refund('C7', 50, { signal: controller.signal })).toEqual({
      kind: 'refused',
      reason: 'Novarch: the call was aborted before this write could run; it did not run',
    });
    expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP]);
  });
});
