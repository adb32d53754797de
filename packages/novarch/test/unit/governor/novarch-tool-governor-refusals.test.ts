import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmJudge } from '../../../src/index.js';
import { type FaultableMethod, FaultyStore } from '../gate/support/faulty-store.js';
import {
  eventually,
  type GovernorBase,
  gate,
  LOOKUP,
  openGovernorBase,
  openGovernorWorld,
  REFUND,
} from './support/governor-world.js';

// NovarchToolGovernor stops and refusals: killed sessions, failures of Novarch itself, unmapped
// tools, parallel writes and options, with the set-up of novarch-tool-governor.test.ts (a real
// SQLite store, sometimes wrapped to fail; an "operator" acting through the store API).

let base: GovernorBase;
beforeAll(async () => {
  base = await openGovernorBase();
});
afterAll(() => base.close());

/** Waits for the session's pending hold to appear, as an operator watching `novarch holds list` would. */
function pendingHold(sessionId: string) {
  return eventually(async () => (await base.store.listHolds({ status: 'pending', sessionId }))[0]);
}

describe('NovarchToolGovernor stops a killed session', () => {
  /** Proves an operator kill in the store latches the session at its next call, reads included. */
  it('refuses every call after an operator kill, and raiseIfKilled throws', async () => {
    const world = await openGovernorWorld(base);
    await world.lookUp('C1');
    await base.store.killSession(world.sessionId, 'operator ana: customer complained');
    expect(world.governor.killed).toBe(false);
    expect(await world.lookUp('C1')).toEqual({
      kind: 'killed',
      reason: 'Novarch: an operator killed this session',
      citations: {
        ruleIds: [],
        evidenceIds: [],
        rationale: 'killed by an operator: operator ana: customer complained',
      },
    });
    expect(world.governor.killed).toBe(true);
    expect(() => world.governor.raiseIfKilled()).toThrow(
      `Novarch killed session ${world.sessionId}: killed by an operator: operator ana: customer complained`,
    );
    expect(await world.refund('C1', 10)).toMatchObject({
      kind: 'killed',
      reason:
        'Novarch: this session was stopped (killed by an operator: operator ana: customer complained); no further tool calls run',
    });
    expect(world.executed).toHaveLength(1);
    expect(await base.store.audit({ sessionId: world.sessionId })).toEqual([]);
  });

  /** Proves a held write an operator approves after killing the session does not run. */
  it('refuses a held write approved after an operator killed the session', async () => {
    const world = await openGovernorWorld(base);
    await world.lookUp('C3');
    const waiting = world.refund('C3', 900);
    const hold = await pendingHold(world.sessionId);
    await base.store.killSession(world.sessionId, 'fraud suspected');
    await base.store.decideHold(hold.id, 'approved', 'operator-bo', 'looks fine to me');
    expect(await waiting).toMatchObject({
      kind: 'killed',
      reason: 'Novarch: an operator killed this session while this write was held',
    });
    expect(world.governor.killReason()).toBe('killed by an operator: fraud suspected');
    expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP]);
  });

  /**
   * Proves a kill stored while a slow judge was still judging wins over the judge's pass: the pass
   * and the release are one transaction that checks the kill, so the write does not run, and the
   * audit keeps the judge's pass, then the gate's note that the write did not run.
   */
  it('refuses a passed write when the session was killed while it was judged', async () => {
    const release = gate();
    let judging = false;
    const slowJudge: LlmJudge = {
      async judge(request) {
        judging = true;
        await release.promise;
        return request.rules.map((rule) => ({ ruleId: rule.id, violated: false, rationale: 'justified' }));
      },
    };
    const world = await openGovernorWorld(base, { llmJudge: slowJudge });
    const waiting = world.refund('C8', 50);
    await eventually(async () => (judging ? true : undefined));
    await base.store.killSession(world.sessionId, 'operator ana: stop now');
    release.open();
    expect(await waiting).toMatchObject({
      kind: 'killed',
      reason: 'Novarch: an operator killed this session while this write was being judged',
    });
    const [entry] = await base.store.audit({ sessionId: world.sessionId });
    expect(entry?.verdicts.map(({ source, verdict }) => [source, verdict.kind])).toEqual([
      ['judge', 'pass'],
      ['gate', 'kill'],
    ]);
    expect(entry?.verdict?.verdict.citations.rationale).toBe(
      'the session was stopped before this write could run (operator ana: stop now); it did not run',
    );
    expect(entry?.action.releasedAt).toBeUndefined();
    expect(world.executed).toEqual([]);
    expect(world.governor.killReason()).toBe('killed by an operator: operator ana: stop now');
  });

  /**
   * Proves the narrowest window of item 2: a kill stored after the judge's pass, right before the
   * store is asked to release the write (here by the store wrapper itself), still wins. The same
   * for an approved hold: a kill between the approval and its release stops the write.
   */
  it.each([
    ['passed', 50, 'while this write was being judged'],
    ['approved', 900, 'while this write was held'],
  ] as const)(
    'refuses a %s write when the kill lands right before its release',
    async (_, amount, during) => {
      let sessionId = '';
      class KillBeforeRelease extends FaultyStore {
        override async releaseAction(release: Parameters<FaultyStore['releaseAction']>[0]) {
          await this.inner.killSession(sessionId, 'operator ana: stop at the release');
          return super.releaseAction(release);
        }
      }
      const world = await openGovernorWorld(base, { store: new KillBeforeRelease(base.store) });
      sessionId = world.sessionId;
      await world.lookUp('C9');
      const waiting = world.refund('C9', amount);
      if (amount > 500) {
        const hold = await pendingHold(world.sessionId);
        await base.store.decideHold(hold.id, 'approved', 'operator-bo', 'fine');
      }
      expect(await waiting).toEqual({
        kind: 'killed',
        reason: `Novarch: an operator killed this session ${during}`,
        citations: {
          ruleIds: [],
          evidenceIds: [],
          rationale: 'killed by an operator: operator ana: stop at the release',
        },
      });
      expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP]);
      const [entry] = await base.store.audit({ sessionId });
      expect(entry?.action.releasedAt).toBeUndefined();
      expect(entry?.verdict).toMatchObject({ source: 'gate', verdict: { kind: 'kill' } });
      expect(world.governor.killed).toBe(true);
    },
  );

  /**
   * Proves the governor stores each stop with its source and citations (item 15): a judge kill
   * with its rule and action, a skipped and a timed-out hold with theirs; and a governor that
   * finds such a kill in the store tells it as what it was, not as an operator's.
   */
  it('stores judge kills, skips and timeouts with their source, and tells them so later', async () => {
    const judged = await openGovernorWorld(base);
    const killed = await judged.refund('C2', 50);
    const [judgedEntry] = await base.store.audit({ sessionId: judged.sessionId });
    expect((await base.store.getSession(judged.sessionId))?.kill).toMatchObject({
      source: 'judge',
      actionId: judgedEntry?.action.id,
      ruleIds: ['TEAM-1'],
      evidenceIds: [],
    });
    // Another process's governor on the same session reads the stored kill.
    const other = await openGovernorWorld(base);
    const { NovarchToolGovernor } = await import('../../../src/index.js');
    const again = new NovarchToolGovernor({
      session: judged.session,
      toolKinds: { [LOOKUP]: 'read' },
    });
    const outcome = await again.run({ toolName: LOOKUP, input: { customer_id: 'C2' } }, () => 'ran');
    // The stored kill keeps rule and evidence ids and the rationale (not the rule-set references).
    const {
      ruleSets: _ruleSets,
      rules: _rules,
      ...killCitations
    } = killed.kind === 'killed' ? killed.citations : { ruleSets: [], rules: [] };
    expect(outcome).toEqual({
      kind: 'killed',
      reason: 'Novarch: this session was stopped',
      citations: killCitations,
    });
    expect(again.killReason()).toMatch(/^TEAM-1 /);

    const skipped = other;
    await skipped.lookUp('C3');
    const waiting = skipped.refund('C3', 900);
    const hold = await pendingHold(skipped.sessionId);
    await base.store.decideHold(hold.id, 'skipped', 'operator-ana', 'not mine');
    await waiting;
    expect((await base.store.getSession(skipped.sessionId))?.kill).toMatchObject({
      source: 'hold_skipped',
      actionId: hold.actionId,
      ruleIds: ['TEAM-2'],
    });
    const timedOut = await openGovernorWorld(base, { holdWindowSeconds: 0 });
    await timedOut.lookUp('C3');
    await timedOut.refund('C3', 900);
    expect((await base.store.getSession(timedOut.sessionId))?.kill).toMatchObject({
      source: 'hold_timed_out',
      ruleIds: ['TEAM-2'],
    });
  });

  /** Proves a call's deadline bounds its hold: no operator is offered a write that could no longer run. */
  it("ends a held write's hold before the call's deadline", async () => {
    const world = await openGovernorWorld(base);
    await world.lookUp('C3');
    const deadline = Date.now() + 1_500;
    const outcome = await world.governor.run(
      { toolName: REFUND, input: { customer_id: 'C3', amount: 900 }, deadline },
      () => 'ran',
    );
    expect(outcome).toMatchObject({
      kind: 'killed',
      reason: 'Novarch: no operator decided the hold in time; the session is stopped',
    });
    const [hold] = await base.store.listHolds({ sessionId: world.sessionId });
    expect(Date.parse(hold?.deadline ?? '')).toBeLessThanOrEqual(deadline);
    expect(hold?.status).toBe('timed_out');
  });

  /** Proves the same slow judge lets the write run when nobody killed the session meanwhile. */
  it('runs a write the slow judge passes when the session stayed open', async () => {
    const slowJudge: LlmJudge = {
      judge: async (request) =>
        request.rules.map((rule) => ({ ruleId: rule.id, violated: false, rationale: 'ok' })),
    };
    const world = await openGovernorWorld(base, { llmJudge: slowJudge });
    expect(await world.refund('C8', 50)).toMatchObject({ kind: 'ran' });
  });

  /**
   * Proves a read still being checked against the store when a sibling write latched the session
   * is refused: nothing is let through once the session latched.
   */
  it('refuses a read that was still being checked when a sibling write latched the session', async () => {
    const readMayGo = gate();
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
    const world = await openGovernorWorld(base, { store: new SlowSessionStore(base.store) });
    const write = world.refund('C2', 50);
    delayNextGetSession = readMayGo.promise;
    const read = world.lookUp('C2');
    expect(await write).toMatchObject({
      kind: 'killed',
      reason: expect.stringMatching(/^Novarch: refused: TEAM-1/),
    });
    readMayGo.open();
    expect(await read).toMatchObject({
      kind: 'killed',
      reason: expect.stringMatching(/^Novarch: this session was stopped \(TEAM-1/),
    });
    expect(world.executed).toEqual([]);
  });
});

describe('NovarchToolGovernor fails closed', () => {
  /** Proves a write whose input does not fit its WriteSpec is refused with a readable reason, never judged. */
  it('refuses a write whose context builder throws, saying why, and judges nothing', async () => {
    const world = await openGovernorWorld(base);
    await world.lookUp('C1');
    expect(await world.call(REFUND, { customer_id: 'C1', amount: 5, explode: true })).toEqual({
      kind: 'refused',
      reason: `Novarch: the input of "${REFUND}" does not fit its WriteSpec (the context builder exploded)`,
    });
    expect(await world.call(REFUND, 'not an object')).toEqual({
      kind: 'refused',
      reason: `Novarch: write "${REFUND}" has no usable input or WriteSpec`,
    });
    expect(await base.store.audit({ sessionId: world.sessionId })).toEqual([]);
    expect(world.governor.killed).toBe(false);
    expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP]);
  });

  /**
   * Proves a store failing at any step of a write that would pass (proposing the action: its kill
   * check, insert and evidence; recording the pass with the write's release) refuses it, never runs
   * it, and never rejects; once the store heals the write passes. A write reads no session of its
   * own before it is proposed (the kill check is the proposal's).
   */
  it('reads no session before proposing a write', async () => {
    const world = await openGovernorWorld(base);
    await world.lookUp('C1');
    const reads = world.store.callsOf('getSession');
    expect(await world.refund('C1', 120)).toMatchObject({ kind: 'ran' });
    expect(world.store.callsOf('getSession')).toBe(reads);
  });
  it.each<[FaultableMethod, number | undefined]>([
    ['proposeAction', undefined],
    ['releaseAction', undefined],
  ])('refuses a write that would pass when the store rejects %s (call %s)', async (method, nth) => {
    const world = await openGovernorWorld(base);
    await world.lookUp('C1');
    const calls = world.store.callsOf(method);
    world.store.fail(method, nth === undefined ? undefined : calls + nth);
    expect(await world.refund('C1', 120)).toEqual({
      kind: 'refused',
      reason: `Novarch: the gate failed (injected ${method} failure); refused to be safe`,
    });
    expect(world.governor.killed).toBe(false);
    world.store.heal();
    expect(await world.refund('C1', 120)).toMatchObject({ kind: 'ran' });
    expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP, REFUND]);
  });

  /** Proves a store failing after the write's action was recorded records the refusal on that action. */
  it.each<FaultableMethod>(['releaseAction'])(
    'records the refusal on the judged action when the store rejects %s',
    async (method) => {
      const world = await openGovernorWorld(base);
      await world.lookUp('C1');
      world.store.fail(method);
      await world.refund('C1', 120);
      world.store.heal();
      const entries = await base.store.audit({ sessionId: world.sessionId });
      expect(entries.map((entry) => [entry.action.actionType, entry.action.releasedAt])).toEqual([
        ['issue_refund', undefined],
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
    const world = await openGovernorWorld(base, { holdWindowSeconds });
    await world.lookUp('C1');
    world.store.fail(method);
    expect(await world.refund('C1', 900)).toEqual({
      kind: 'refused',
      reason: `Novarch: the gate failed (injected ${method} failure); refused to be safe`,
    });
    expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP]);
  });

  /** Proves a read whose session cannot be checked is refused too. */
  it('refuses a read when the store cannot tell whether the session was killed', async () => {
    const world = await openGovernorWorld(base);
    world.store.fail('getSession');
    expect(await world.lookUp('C1')).toEqual({
      kind: 'refused',
      reason: 'Novarch: the gate failed (injected getSession failure); refused to be safe',
    });
    expect(world.executed).toEqual([]);
  });

  /** Proves a tool missing from toolKinds never runs, unless allowlisted (then it is a read). */
  it('refuses an unmapped tool, and runs an allowlisted one as a read', async () => {
    const world = await openGovernorWorld(base, { governor: { allowUnmapped: ['search_docs'] } });
    expect(await world.call('delete_account', { customer_id: 'C1' })).toEqual({
      kind: 'refused',
      reason: 'Novarch: tool "delete_account" is not mapped to read or write, so it may not run',
    });
    expect(await world.call('ToolSearch', {})).toMatchObject({ kind: 'refused' });
    expect(await world.call('constructor', {})).toMatchObject({ kind: 'refused' });
    expect(await world.call('search_docs', { query: 'refunds' })).toMatchObject({ kind: 'ran' });
    expect(world.executed.map((each) => each.tool)).toEqual(['search_docs']);
    expect(await base.store.listEvidence(world.sessionId)).toMatchObject([
      { toolName: 'search_docs', input: { query: 'refunds' } },
    ]);
  });

  /**
   * Proves the parallel-write rule of the hook gate: a write started while a read of the session
   * is still running is refused (it would be judged without that read's evidence), and of two
   * writes started together the second is refused; once the read is in, the write is judged.
   */
  it('refuses a write alongside other calls in flight, and judges it once they finished', async () => {
    const world = await openGovernorWorld(base);
    const slow = gate();
    const read = world.lookUp('C1', { behaviour: slow.promise });
    expect(await world.refund('C1', 120)).toEqual({
      kind: 'refused',
      reason: 'Novarch: a write may not run alongside other tool calls of the same turn; call it on its own',
    });
    slow.open();
    await read;
    const [first, second] = await Promise.all([world.refund('C1', 120), world.refund('C1', 130)]);
    expect(first).toMatchObject({ kind: 'ran' });
    expect(second).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/alongside other tool calls/),
    });
    const audit = await base.store.audit({ sessionId: world.sessionId });
    expect(audit.map((entry) => entry.verdict?.verdict.kind)).toEqual(['pass']);
  });
});

describe('NovarchToolGovernor options', () => {
  /** Proves misconfigurations are rejected when the governor is built, saying how to fix them. */
  it('rejects options it cannot honour', async () => {
    const world = await openGovernorWorld(base);
    const { session } = world;
    const { NovarchToolGovernor } = await import('../../../src/index.js');
    expect(() => new NovarchToolGovernor({ toolKinds: {} })).toThrow(
      'NovarchToolGovernor needs a session: pass { session: { engine, record: await engine.openSession(scope) } }, or create it inside augur.session(...)',
    );
    expect(() => new NovarchToolGovernor({ session, toolKinds: { refund: 'write' } })).toThrow(
      'write tool "refund" has no WriteSpec: add writeSpecs["refund"] with actionType and contextBuilder',
    );
    const spec = { actionType: 'issue_refund', contextBuilder: () => ({ recordId: 'x', summary: 'x' }) };
    expect(
      () => new NovarchToolGovernor({ session, toolKinds: { refund: 'read' }, writeSpecs: { refund: spec } }),
    ).toThrow(
      'writeSpecs["refund"] is for a tool toolKinds does not map as "write", so it would never be judged',
    );
    expect(
      () =>
        new NovarchToolGovernor({
          session,
          toolKinds: { refund: 'write' },
          writeSpecs: { refund: { ...spec, actionType: '' } },
        }),
    ).toThrow(
      'writeSpecs["refund"] needs an actionType (a non-empty string) and a contextBuilder (a function)',
    );
    const badKinds = JSON.parse('{ "refund": "delete" }');
    expect(() => new NovarchToolGovernor({ session, toolKinds: badKinds })).toThrow(
      'toolKinds["refund"] is "delete", which is not a tool kind: use exactly "read" or "write"',
    );
  });
});
