import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { augur, augurAsyncTool, NovarchEngine } from '../../../src/index.js';
import { FaultyStore } from '../gate/support/faulty-store.js';
import {
  type GovernorBase,
  LOOKUP,
  openGovernorBase,
  openGovernorWorld,
  REFUND,
  refundContext,
  SCOPE,
} from './support/governor-world.js';

// Issue 24: the gate's "evidence incomplete" did not reach runGovernedRead (the governor's, the AI
// SDK backend's, the remote engine's and the decorator floor's path): a read whose evidence failed
// to store left the next write judged without it. Here the store rejects the read's evidence once.

let base: GovernorBase;
beforeAll(async () => {
  base = await openGovernorBase();
});
afterAll(() => base.close());

const INCOMPLETE = `Novarch: evidence incomplete: the evidence of ${LOOKUP} could not be stored: injected recordEvidence failure; no write of this session is judged on partial evidence`;

describe('lost evidence refuses the next write', () => {
  it('NovarchToolGovernor: the read runs, the write after it is refused and recorded, with a warning', async () => {
    const warnings: string[] = [];
    const world = await openGovernorWorld(base, { governor: { warn: (message) => warnings.push(message) } });
    world.store.fail('recordEvidence', world.store.callsOf('recordEvidence'));
    expect(await world.lookUp('C1')).toMatchObject({ kind: 'ran', output: `${LOOKUP} ok` });
    world.store.heal();
    expect(await world.refund('C1', 120)).toEqual({ kind: 'refused', reason: INCOMPLETE });
    // Every later write too: the read is not coming back.
    expect(await world.lookUp('C1')).toMatchObject({ kind: 'ran' });
    expect(await world.refund('C1', 120)).toEqual({ kind: 'refused', reason: INCOMPLETE });
    expect(world.executed.map((each) => each.tool)).toEqual([LOOKUP, LOOKUP]);
    expect(warnings).toEqual([
      `novarch: session ${world.sessionId}: the evidence of ${LOOKUP} could not be stored: injected recordEvidence failure. Its evidence is incomplete: later writes of the session are refused.`,
    ]);
    const audit = await base.store.audit({ sessionId: world.sessionId });
    expect(
      audit.map((entry) => [entry.action.toolName, entry.verdict?.source, entry.verdict?.verdict.kind]),
    ).toEqual([
      [REFUND, 'gate', 'kill'],
      [REFUND, 'gate', 'kill'],
    ]);
  });

  it('augurAsyncTool: the write after a read whose evidence was lost returns the refusal and does not run', async () => {
    const refunds: string[] = [];
    const lookupTool = await augurAsyncTool(
      'lookup_customer',
      'Look up',
      { customer_id: z.string() },
      { kind: 'read', toolName: LOOKUP },
      async ({ customer_id }) => ({ content: [{ type: 'text', text: `customer ${customer_id}` }] }),
    );
    const refundTool = await augurAsyncTool(
      'issue_refund',
      'Refund',
      { customer_id: z.string(), amount: z.number() },
      { kind: 'write', actionType: 'issue_refund', toolName: REFUND, contextBuilder: refundContext },
      async ({ customer_id }) => {
        refunds.push(customer_id);
        return { content: [{ type: 'text', text: 'refunded' }] };
      },
    );
    const store = new FaultyStore(base.store).fail('recordEvidence', 0);
    const engine = new NovarchEngine({ store, rules: base.rules, holdWindowSeconds: 30 });
    const stderr = process.stderr.write.bind(process.stderr);
    const warned: string[] = [];
    process.stderr.write = ((chunk: string) => warned.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      const result = await augur.session({ ...SCOPE, engine }, async () => {
        expect(await lookupTool.handler({ customer_id: 'C2' }, {})).toMatchObject({
          content: [{ text: 'customer C2' }],
        });
        return refundTool.handler({ customer_id: 'C2', amount: 50 }, {});
      });
      expect(result).toEqual({ content: [{ type: 'text', text: INCOMPLETE }], isError: true });
    } finally {
      process.stderr.write = stderr;
    }
    expect(refunds).toEqual([]);
    expect(warned.join('')).toContain('Its evidence is incomplete: later writes of the session are refused.');
  });
});
