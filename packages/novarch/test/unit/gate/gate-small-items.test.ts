import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_UNMAPPED_ALLOWLIST,
  type LlmJudge,
  NovarchEngine,
  type RuleSet,
} from '../../../src/index.js';
import { judgeAction } from '../../../src/rules/judge-action.js';
import { FaultyStore } from './support/faulty-store.js';
import { denyReason, gateHooks, isNoOpinion } from './support/hook-calls.js';
import {
  LOOKUP,
  type NovarchTestBase,
  openNovarchTestBase,
  openTestGate,
  REFUND,
  SCOPE,
  testEngine,
} from './support/novarch-test-world.js';

// Issue 14, items 3, 10 and 15, at the level of the gate's hooks and the engine.

let base: NovarchTestBase;
beforeAll(async () => {
  base = await openNovarchTestBase();
});
afterAll(() => base.close());

const refund = (customer: string, amount: number) => ({ customer_id: customer, amount, reasoning: 'asked' });

describe('issue 14, item 15', () => {
  /** Before: a judge kill stored by one gate read back as "killed by an operator", citing no rule. */
  it('a kill by the judge keeps its source and rule citations for the next gate of the session', async () => {
    const engine = testEngine(base, new FaultyStore(base.store));
    const first = await openTestGate(engine);
    const hooks = gateHooks(first.gate);
    expect(denyReason(await hooks.pre(REFUND, refund('C1', 50), 'r1'))).toMatch(/^Novarch: refused: TEAM-1/);
    // The same session, resumed in a new gate (another process, a restart).
    const { NovarchHookGate } = await import('../../../src/index.js');
    const second = await new NovarchHookGate({
      toolKinds: { [LOOKUP]: 'read' },
      writeSpecs: {},
      session: first.session,
      warn: () => {},
    }).open();
    expect(denyReason(await gateHooks(second).pre(LOOKUP, { customer_id: 'C1' }, 'l1'))).toBe(
      'Novarch: this session was stopped',
    );
    expect(() => second.raiseIfKilled()).toThrow(/\[rules: TEAM-1\]$/);
    expect(() => second.raiseIfKilled()).not.toThrow(/operator/);
    const stored = await base.store.getSession(first.session.record.id);
    expect(stored?.kill).toMatchObject({ source: 'judge', ruleIds: ['TEAM-1'] });
  });

  /** Before: NaN, Infinity and '10' were taken as hook timeouts and hold waits. */
  it('refuses NaN, Infinity and strings as hooksConfig timeoutS and as maxHoldS', async () => {
    const engine = testEngine(base, base.store);
    const { gate } = await openTestGate(engine);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, '100']) {
      // biome-ignore lint/suspicious/noExplicitAny: the point is a value the types do not allow
      expect(() => gate.hooksConfig({ timeoutS: bad as any })).toThrow(
        /does not outlive this session's hold wait/,
      );
      // biome-ignore lint/suspicious/noExplicitAny: as above
      await expect(engine.openSession({ ...SCOPE }, bad as any)).rejects.toThrow(
        /maxHoldS must be a finite number of seconds/,
      );
    }
  });

  /** Before: `DEFAULT_UNMAPPED_ALLOWLIST.add('Bash')` let Bash through every gate of the process. */
  it('freezes DEFAULT_UNMAPPED_ALLOWLIST', () => {
    const allowlist = DEFAULT_UNMAPPED_ALLOWLIST as Set<string>;
    expect(() => allowlist.add('Bash')).toThrow(/frozen/);
    expect(() => allowlist.delete('ToolSearch')).toThrow(/frozen/);
    expect(() => allowlist.clear()).toThrow(/frozen/);
    expect([...DEFAULT_UNMAPPED_ALLOWLIST]).toEqual(['ToolSearch']);
  });
});

describe('issue 14, item 3: every deadline of a write from its hook', () => {
  const llmRules = (base: NovarchTestBase): RuleSet[] => [
    {
      ...base.rules[0],
      rules: [
        ...(base.rules[0]?.rules ?? []),
        {
          id: 'TEAM-3',
          version: 1,
          description: 'courteous',
          appliesTo: ['issue_refund'],
          onViolation: 'kill',
        },
      ],
    } as RuleSet,
  ];

  /** Before: the default LLM judge could take 60.5 s against a hung API, past the hook's timeout. */
  it('an LLM judge past its budget holds the write (fail-closed), saying the judge ran out of time', async () => {
    // A judge that never answers: without the budget, judgeAction would never resolve.
    const hung: LlmJudge = { judge: () => new Promise(() => {}) };
    const verdict = await judgeAction({
      action: {
        actionType: 'issue_refund',
        toolName: REFUND,
        input: {},
        context: { recordId: 'C1', summary: 's' },
      },
      evidence: [],
      session: SCOPE,
      rules: llmRules(base),
      llmJudge: hung,
      timeoutMs: 200,
    });
    expect(verdict.kind).toBe('kill'); // TEAM-1 kills first (no lookup); the LLM rule is not asked
    const held = await judgeAction({
      action: {
        actionType: 'issue_refund',
        toolName: REFUND,
        input: {},
        context: { recordId: 'C1', summary: 's', amount: 10 },
      },
      evidence: [
        {
          id: 'evd_1',
          sessionId: 's',
          toolName: LOOKUP,
          input: { customer_id: 'C1' },
          output: 'ok',
          isError: false,
          startedAt: new Date().toISOString(),
          finishedAt: new Date().toISOString(),
        },
      ],
      session: SCOPE,
      rules: llmRules(base),
      llmJudge: hung,
      timeoutMs: 200,
    });
    expect(held).toMatchObject({
      kind: 'hold',
      citations: {
        ruleIds: ['TEAM-3'],
        rationale: expect.stringContaining('did not answer within its budget of 0.2 s'),
      },
    });
  });

  /**
   * Before: the hold's deadline counted from its creation after the judge, the hook's timeout from
   * the hook's start: the CLI could stop waiting while the hold still showed "waiting". Now a
   * hold never outlives the moment its write can still run, and with no time left it is closed.
   */
  it("caps a hold's deadline at the write's own deadline, and closes a hold with no time left", async () => {
    const engine = new NovarchEngine({
      store: base.store,
      rules: base.rules,
      holdWindowSeconds: 300,
      pollIntervalMs: 50,
    });
    const session = await engine.openSession({ ...SCOPE });
    await base.store.recordEvidence({
      sessionId: session.id,
      toolName: LOOKUP,
      input: { customer_id: 'C1' },
      output: 'ok',
      isError: false,
      startedAt: new Date().toISOString(),
      finishedAt: new Date().toISOString(),
    });
    const proposed = {
      actionType: 'issue_refund',
      toolName: REFUND,
      input: refund('C1', 900),
      context: { recordId: 'C1', summary: 'refund', amount: 900 },
    };
    const deadline = Date.now() + 10_000;
    const capped = await engine.decide(session, proposed, { deadline });
    expect(Date.parse(capped.hold?.deadline ?? '')).toBeLessThanOrEqual(deadline - 50);
    expect(capped.hold?.status).toBe('pending');
    const late = await engine.decide(session, proposed, { deadline: Date.now() + 500 });
    expect(late.hold).toMatchObject({ status: 'timed_out', decidedBy: 'novarch' });
  });

  it('a write whose hook has no time left is held closed, not offered to an operator', async () => {
    const engine = testEngine(base, base.store, { holdWindowSeconds: 3 });
    const { gate, session } = await openTestGate(engine);
    const hooks = gateHooks(gate);
    expect(isNoOpinion(await hooks.pre(LOOKUP, { customer_id: 'C2' }, 'l1'))).toBe(true);
    await hooks.post(LOOKUP, { customer_id: 'C2' }, 'l1', 'ok');
    // A matcher timeout of 5.5 s: the write must be let run by 0.5 s after its hook started
    // (5 s before the CLI stops waiting), which leaves no operator the time to decide.
    const config = gate.hooksConfig({ timeoutS: 5.5 });
    const pre = config.PreToolUse?.[0]?.hooks[0];
    const output = await pre?.(
      {
        session_id: 's',
        transcript_path: '/tmp/t',
        cwd: '/tmp',
        hook_event_name: 'PreToolUse',
        tool_name: REFUND,
        tool_input: refund('C2', 900),
        tool_use_id: 'r1',
      },
      'r1',
      { signal: new AbortController().signal },
    );
    expect(denyReason(output ?? {})).toBe(
      'Novarch: no operator decided the hold in time; the session is stopped',
    );
    // At once: no hold was left waiting out its 3 s (before, the gate waited them out). A hold
    // waited out ends "no operator decision before the deadline", with its waiter checked in.
    const [hold] = await base.store.listHolds({ sessionId: session.record.id });
    expect(hold).toMatchObject({
      status: 'timed_out',
      decidedBy: 'novarch',
      rationale: 'no time was left for an operator before the write could no longer run',
    });
    expect(hold?.waiter).toBeUndefined();
  });
});

describe('issue 14, item 10: regexes in rules run on RE2', () => {
  /** Before: `(a+)+$` against 27 characters took 11.4 s in the backtracking JS RegExp. */
  it('a catastrophic pattern against an agent string is decided in linear time', async () => {
    const rules: RuleSet[] = [
      {
        ...base.rules[0],
        rules: [
          {
            id: 'TEAM-R',
            version: 1,
            description: 'summary is well formed',
            appliesTo: ['issue_refund'],
            onViolation: 'kill',
            condition: '!action.context.summary.matches("^(a+)+$")',
          },
        ],
      } as RuleSet,
    ];
    // A backtracking engine would not return from this match (2^40 steps); the next test shows
    // the engine is RE2 (it refuses a lookahead, which RE2 cannot run).
    const verdict = await judgeAction({
      action: {
        actionType: 'issue_refund',
        toolName: REFUND,
        input: {},
        context: { recordId: 'C1', summary: `${'a'.repeat(40)}!` },
      },
      evidence: [],
      session: SCOPE,
      rules,
    });
    expect(verdict.kind).toBe('pass');
  });

  it('a pattern RE2 cannot run (a lookahead) is a violation with its reason, not a pass', async () => {
    const rules: RuleSet[] = [
      {
        ...base.rules[0],
        rules: [
          {
            id: 'TEAM-L',
            version: 1,
            description: 'no lookahead',
            appliesTo: ['issue_refund'],
            onViolation: 'kill',
            condition: 'action.context.summary.matches("^(?=a)a")',
          },
        ],
      } as RuleSet,
    ];
    const verdict = await judgeAction({
      action: {
        actionType: 'issue_refund',
        toolName: REFUND,
        input: {},
        context: { recordId: 'C1', summary: 'a' },
      },
      evidence: [],
      session: SCOPE,
      rules,
    });
    expect(verdict.kind).toBe('kill');
    expect(verdict.citations.rationale).toMatch(
      /could not be evaluated \(invalid regular expression for RE2/,
    );
  });
});
