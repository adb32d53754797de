import { createSdkMcpServer } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  augur,
  augurAsyncTool,
  type NovarchEngine,
  NovarchError,
  NovarchKillError,
} from '../../../src/index.js';
import { FaultyStore } from '../gate/support/faulty-store.js';
import {
  eventually,
  LOOKUP,
  type NovarchTestBase,
  openNovarchTestBase,
  REFUND,
  refundContext,
  SCOPE,
  testEngine,
} from '../gate/support/novarch-test-world.js';

// The decorator floor, as a hand-rolled loop uses it: the test awaits the returned tool's handler
// itself, inside augur.session, against a real SQLite store and the e2e fixture's rules (TEAM-1: a
// refund needs a lookup of the same customer, or kill; TEAM-2: over 500 is held). `toolName` gives
// the tools the names those rules match, as the hook gate would see them.

let base: NovarchTestBase;
beforeAll(async () => {
  base = await openNovarchTestBase();
});
afterAll(() => base.close());

/** Refunds the write handler really executed, and lookups the read handler really executed. */
let refunds: { customer_id: string; amount: number }[] = [];
let lookups: string[] = [];
beforeEach(() => {
  refunds = [];
  lookups = [];
});

const lookupTool = await augurAsyncTool(
  'lookup_customer',
  'Look up a customer',
  { customer_id: z.string() },
  { kind: 'read', toolName: LOOKUP },
  async ({ customer_id }) => {
    if (customer_id === 'broken') throw new Error('lookup service down');
    lookups.push(customer_id);
    return { content: [{ type: 'text', text: `customer ${customer_id}: in good standing` }] };
  },
);

const refundTool = await augurAsyncTool(
  'issue_refund',
  'Issue a refund',
  { customer_id: z.string(), amount: z.number(), reasoning: z.string() },
  { kind: 'write', actionType: 'issue_refund', toolName: REFUND, contextBuilder: refundContext },
  async ({ customer_id, amount }) => {
    refunds.push({ customer_id, amount });
    return { content: [{ type: 'text', text: `refunded ${amount} to ${customer_id}` }] };
  },
);

const lookUp = (customer_id: string) => lookupTool.handler({ customer_id }, {});
const refund = (customer_id: string, amount: number) =>
  refundTool.handler({ customer_id, amount, reasoning: 'customer asked' }, {});

/** Runs `fn` in a fresh governed session; returns its result and the session id. */
async function inSession<T>(
  engine: NovarchEngine,
  fn: () => Promise<T>,
): Promise<{ result: T; sessionId: string }> {
  return augur.session({ ...SCOPE, engine }, async () => {
    const sessionId = augur.current()?.record.id ?? '';
    return { result: await fn(), sessionId };
  });
}

/** Runs `fn` in a fresh governed session and returns the error it threw. */
async function thrownIn(engine: NovarchEngine, fn: (sessionId: () => string) => Promise<unknown>) {
  let sessionId = '';
  const error = await augur
    .session({ ...SCOPE, engine }, async () => {
      sessionId = augur.current()?.record.id ?? '';
      await fn(() => sessionId);
    })
    .then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
  if (!(error instanceof Error)) throw new Error('expected the session to throw');
  return { error, sessionId };
}

/** Decides the first pending hold of the session once the waiting handler has created it. */
async function operatorDecides(
  sessionId: () => string,
  status: 'approved' | 'denied' | 'skipped',
  rationale: string,
): Promise<void> {
  const hold = await eventually(
    async () => (await base.store.listHolds({ status: 'pending', sessionId: sessionId() }))[0],
  );
  await base.store.decideHold(hold.id, status, 'operator-ana', rationale);
}

function textOf(result: Awaited<ReturnType<typeof lookUp>>): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

describe('augurAsyncTool', () => {
  /** Proves it returns the SDK's own tool definition, ready for createSdkMcpServer. */
  it('returns the SDK tool definition with the name, description and schema it was given', () => {
    expect(refundTool).toMatchObject({ name: 'issue_refund', description: 'Issue a refund' });
    expect(Object.keys(refundTool.inputSchema)).toEqual(['customer_id', 'amount', 'reasoning']);
    expect(() => createSdkMcpServer({ name: 'cs', tools: [lookupTool, refundTool] })).not.toThrow();
  });

  /** Proves a read runs and is recorded as evidence: input, output, timing, and no error. */
  it('runs a read and records it as evidence', async () => {
    const engine = testEngine(base, base.store);
    const { result, sessionId } = await inSession(engine, () => lookUp('C1'));
    expect(textOf(result)).toBe('customer C1: in good standing');
    const [evidence] = await base.store.listEvidence(sessionId);
    expect(evidence).toMatchObject({
      toolName: LOOKUP,
      input: { customer_id: 'C1' },
      output: result,
      isError: false,
    });
    expect(Date.parse(evidence?.finishedAt ?? '')).toBeGreaterThanOrEqual(
      Date.parse(evidence?.startedAt ?? ''),
    );
  });

  /** Proves a read that throws is evidence too (isError, the message as output) and its error reaches the caller. */
  it('records a read that throws as evidence with isError, and rethrows', async () => {
    const engine = testEngine(base, base.store);
    const { error, sessionId } = await thrownIn(engine, () => lookUp('broken'));
    expect(error.message).toBe('lookup service down');
    expect(await base.store.listEvidence(sessionId)).toMatchObject([
      { toolName: LOOKUP, input: { customer_id: 'broken' }, output: 'lookup service down', isError: true },
    ]);
  });

  /** Proves a write the judge passes runs, with its verdict audited and the agent's reasoning kept. */
  it('judge pass: the write runs', async () => {
    const engine = testEngine(base, base.store);
    const { result, sessionId } = await inSession(engine, async () => {
      await lookUp('C1');
      return refund('C1', 120);
    });
    expect(textOf(result)).toBe('refunded 120 to C1');
    expect(refunds).toEqual([{ customer_id: 'C1', amount: 120 }]);
    const [entry] = await base.store.audit({ sessionId });
    expect(entry?.verdict?.verdict).toMatchObject({
      kind: 'pass',
      citations: { ruleIds: ['TEAM-1', 'TEAM-2'] },
    });
    expect(entry?.action).toMatchObject({
      toolName: REFUND,
      actionType: 'issue_refund',
      reasoning: 'customer asked',
    });
  });

  /**
   * Proves a judge kill throws NovarchKillError from the tool body, citing the rule, without running
   * the write; the kill is stored, so the session's next call throws before running.
   */
  it('judge kill: throws NovarchKillError and the write does not run', async () => {
    const engine = testEngine(base, base.store);
    let killError: unknown;
    const { error, sessionId } = await thrownIn(engine, async () => {
      killError = await refund('C2', 50).catch((thrown: unknown) => thrown);
      await lookUp('C2');
    });
    expect(killError).toBeInstanceOf(NovarchKillError);
    expect(killError).toMatchObject({ sessionId, citations: { ruleIds: ['TEAM-1'] } });
    expect(String(killError)).toMatch(/^NovarchKillError: Novarch killed session .* at action .*: TEAM-1/);
    expect(refunds).toEqual([]);
    expect((await base.store.getSession(sessionId))?.killedAt).toBeDefined();
    expect(error).toBeInstanceOf(NovarchKillError);
    expect(lookups).toEqual([]);
  });

  /** Proves a held write waits for the operator and runs once approved. */
  it('hold approved: the write runs after the operator approves', async () => {
    const engine = testEngine(base, base.store);
    let sessionId = '';
    const { result } = await inSession(engine, async () => {
      sessionId = augur.current()?.record.id ?? '';
      await lookUp('C3');
      const waiting = refund('C3', 900);
      await operatorDecides(() => sessionId, 'approved', 'checked with finance');
      return waiting;
    });
    expect(textOf(result)).toBe('refunded 900 to C3');
    expect(refunds).toEqual([{ customer_id: 'C3', amount: 900 }]);
    expect(await base.store.listHolds({ sessionId })).toMatchObject([{ status: 'approved' }]);
  });

  /** Proves an operator deny throws NovarchKillError with the operator's rationale; the session is not killed. */
  it("hold denied: throws NovarchKillError with the operator's rationale", async () => {
    const engine = testEngine(base, base.store);
    const { error, sessionId } = await thrownIn(engine, async (sessionId) => {
      await lookUp('C4');
      const waiting = refund('C4', 900);
      await operatorDecides(sessionId, 'denied', 'over the monthly limit');
      await waiting;
    });
    expect(error).toBeInstanceOf(NovarchKillError);
    expect(error.message).toContain('an operator denied this action: over the monthly limit');
    expect(refunds).toEqual([]);
    expect((await base.store.getSession(sessionId))?.killedAt).toBeUndefined();
  });

  /** Proves a skipped or timed-out hold throws NovarchKillError and stops the session (fail-closed). */
  it.each([
    ['skipped', 'an operator skipped the hold'],
    ['timed_out', 'no operator decided the hold in time'],
  ] as const)('hold %s: throws NovarchKillError and the session is killed', async (status, rationale) => {
    // With a hold window of 0 s nobody can decide in time: the hold times out at once.
    const engine = testEngine(base, base.store, { holdWindowSeconds: status === 'timed_out' ? 0 : 30 });
    const { error, sessionId } = await thrownIn(engine, async (sessionId) => {
      await lookUp('C5');
      const waiting = refund('C5', 900);
      if (status === 'skipped') await operatorDecides(sessionId, 'skipped', 'not mine');
      await waiting;
    });
    expect(error).toBeInstanceOf(NovarchKillError);
    expect(error.message).toContain(rationale);
    expect(refunds).toEqual([]);
    expect(await base.store.getSession(sessionId)).toMatchObject({ killReason: rationale });
  });

  /**
   * Proves the MCP request's abort signal ends a hold's wait: the write does not run, the handler
   * returns an error result, the hold is closed (a late approval changes nothing), and the session
   * is not killed (an abort is no verdict).
   */
  it('hold aborted: refuses without running, closes the hold, and the session goes on', async () => {
    const engine = testEngine(base, base.store);
    const controller = new AbortController();
    let sessionId = '';
    const { result } = await inSession(engine, async () => {
      sessionId = augur.current()?.record.id ?? '';
      await lookUp('C9');
      const waiting = refundTool.handler(
        { customer_id: 'C9', amount: 900, reasoning: 'customer asked' },
        { signal: controller.signal },
      );
      const hold = await eventually(
        async () => (await base.store.listHolds({ status: 'pending', sessionId }))[0],
      );
      controller.abort();
      const aborted = await waiting;
      return { aborted, late: await base.store.decideHold(hold.id, 'approved', 'operator-ana') };
    });
    expect(textOf(result.aborted)).toBe(
      'Novarch: the call was aborted while this write was held; it did not run',
    );
    expect(result.aborted.isError).toBe(true);
    expect(result.late.status).toBe('timed_out');
    expect(refunds).toEqual([]);
    expect((await base.store.getSession(sessionId))?.killedAt).toBeUndefined();
  });

  /** Proves an operator kill of the session stops reads and writes before they run. */
  it('operator kill: the next call throws NovarchKillError before running', async () => {
    const engine = testEngine(base, base.store);
    const errors: unknown[] = [];
    await inSession(engine, async () => {
      await lookUp('C6');
      await base.store.killSession(augur.current()?.record.id ?? '', 'customer complained');
      await lookUp('C6').catch((error: unknown) => errors.push(error));
      await refund('C6', 10).catch((error: unknown) => errors.push(error));
    });
    expect(errors).toHaveLength(2);
    for (const error of errors) {
      expect(error).toBeInstanceOf(NovarchKillError);
      expect(String(error)).toContain('killed by an operator: customer complained');
    }
    expect(lookups).toEqual(['C6']);
    expect(refunds).toEqual([]);
  });

  /**
   * Proves the decorator floor's half of issue 14 item 2: a kill stored after the judge's pass,
   * right before the store releases the write, wins: the write does not run, the handler throws
   * NovarchKillError, and the audit says the write did not run.
   */
  it('operator kill right before the release: throws NovarchKillError and the write does not run', async () => {
    let killedSession = '';
    class KillBeforeRelease extends FaultyStore {
      override async releaseAction(release: Parameters<FaultyStore['releaseAction']>[0]) {
        killedSession = release.sessionId;
        await this.inner.killSession(release.sessionId, 'customer complained');
        return super.releaseAction(release);
      }
    }
    const engine = testEngine(base, new KillBeforeRelease(base.store));
    const { error } = await thrownIn(engine, async () => {
      await lookUp('C8');
      await refund('C8', 50);
    });
    expect(error).toBeInstanceOf(NovarchKillError);
    expect(String(error)).toContain('killed by an operator: customer complained');
    expect(refunds).toEqual([]);
    const [entry] = await base.store.audit({ sessionId: killedSession });
    expect(entry?.verdicts.map(({ source, verdict }) => `${source} ${verdict.kind}`)).toEqual([
      'judge pass',
      'gate kill',
    ]);
  });

  /** Proves a write Novarch cannot judge does not run: the model reads why in an error result. */
  it('refuses, without running, a write whose context builder throws or whose store fails', async () => {
    const store = new FaultyStore(base.store);
    const engine = testEngine(base, store);
    const { result } = await inSession(engine, async () => {
      await lookUp('C7');
      const explodingInput = { customer_id: 'C7', amount: 5, reasoning: 'x', explode: true };
      const unfit = await refundTool.handler(explodingInput, {});
      store.fail('proposeAction');
      const storeDown = await refund('C7', 5);
      return { unfit, storeDown };
    });
    expect(result.unfit).toEqual({
      content: [
        {
          type: 'text',
          text: 'Novarch: the input of "issue_refund" does not fit its WriteSpec (the context builder exploded)',
        },
      ],
      isError: true,
    });
    expect(result.storeDown.isError).toBe(true);
    expect(textOf(result.storeDown)).toBe(
      'Novarch: the gate failed (injected proposeAction failure); refused to be safe',
    );
    expect(refunds).toEqual([]);
  });

  /** Proves a handler called outside augur.session refuses to run at all. */
  it('throws NovarchError outside augur.session', async () => {
    await expect(lookUp('C1')).rejects.toThrow(NovarchError);
    await expect(refund('C1', 10)).rejects.toThrow(
      'tool "issue_refund" was called outside augur.session(...): call its handler inside the governed session it belongs to',
    );
    expect(lookups).toEqual([]);
    expect(refunds).toEqual([]);
  });
});

describe('augurAsyncTool declaration errors', () => {
  const content = { content: [] };

  /** Proves a handler that is not an async function is rejected when the tool is declared. */
  it('rejects a handler that is not an async function', async () => {
    await expect(
      augurAsyncTool('lookup', 'Look up', {}, { kind: 'read' }, () => Promise.resolve(content)),
    ).rejects.toThrow(
      'augurAsyncTool("lookup"): the handler must be an async function, got a function that is not async; declare it as `async (args) => { ... }`',
    );
  });

  /** Proves a write without actionType and contextBuilder is rejected when declared, naming what is missing. */
  it('rejects a write without actionType or contextBuilder', async () => {
    await expect(
      augurAsyncTool('refund', 'Refund', {}, { kind: 'write' }, async () => content),
    ).rejects.toThrow(
      'augurAsyncTool("refund"): kind "write" needs actionType and contextBuilder (missing: actionType and contextBuilder), so the judge knows what the write does',
    );
    await expect(
      augurAsyncTool(
        'refund',
        'Refund',
        {},
        { kind: 'write', actionType: 'issue_refund' },
        async () => content,
      ),
    ).rejects.toThrow('(missing: contextBuilder)');
  });

  /** Proves a read declared with a write's spec is rejected: it would look gated but never be judged. */
  it('rejects a read that carries actionType or contextBuilder', async () => {
    await expect(
      augurAsyncTool(
        'refund',
        'Refund',
        {},
        { kind: 'read', actionType: 'issue_refund' },
        async () => content,
      ),
    ).rejects.toThrow('kind "read" takes no actionType or contextBuilder, because reads are not judged');
  });
});
