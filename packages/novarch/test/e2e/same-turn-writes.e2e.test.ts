import { reply, startFakeAnthropic, toolUses } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGateWorld, type GateWorld, toolResultsSeen } from './support/gate-fixture.js';

// Issue 24: two writes in one assistant message, the first one ran. The CLI starts a tool's hook
// as soon as its block is complete, before the next block streams, so the gate decided the first
// write before its sibling existed. Fed the stream's partial messages (as HoloDeck feeds it), the
// gate now waits for the end of the write's message and refuses it when other calls follow.

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

const LOOKUP = 'mcp__cs__lookup_customer';
const REFUND = 'mcp__cs__issue_refund';
const refundInput = (customer: string, amount: number) => ({
  customer_id: customer,
  amount,
  reasoning: 'customer asked',
});
const sorted = <T>(rows: T[]): T[] =>
  rows
    .map((row) => [JSON.stringify(row), row] as const)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, row]) => row);
const ALONGSIDE = 'Novarch: a write may not run alongside other tool calls of the same turn';
const BESIDE = `Novarch: a call may not run beside a write of the same turn (${REFUND}, call r1)`;

/** How the CLI meets the message: tools run one by one or concurrently; blocks at once or 600 ms apart. */
const VARIANTS = [
  { name: 'one SSE response, plain tools', readOnlyHints: false, chunkDelayMs: 0 },
  { name: 'one SSE response, readOnlyHint tools', readOnlyHints: true, chunkDelayMs: 0 },
  { name: '600 ms between blocks, plain tools', readOnlyHints: false, chunkDelayMs: 600 },
  { name: '600 ms between blocks, readOnlyHint tools', readOnlyHints: true, chunkDelayMs: 600 },
];

describe('calls made together with a write, through the real CLI', () => {
  describe.each(VARIANTS)('$name', ({ readOnlyHints, chunkDelayMs }) => {
    /** A lookup first, so the refunds would pass TEAM-1 if each were judged alone. */
    it('[refund, refund] in one message: neither runs', async () => {
      world = await createGateWorld();
      fake.script(
        toolUses([{ name: LOOKUP, input: { customer_id: 'C1' }, id: 'l0' }]),
        toolUses(
          [
            { name: REFUND, input: refundInput('C1', 10), id: 'r1' },
            { name: REFUND, input: refundInput('C1', 20), id: 'r2' },
          ],
          { chunkDelayMs },
        ),
        reply('done'),
      );
      await world.run(fake.url, { partialMessages: true, readOnlyHints });
      expect(world.refunds).toEqual([]);
      expect(toolResultsSeen(fake, 2).r1?.text).toContain(ALONGSIDE);
      expect(toolResultsSeen(fake, 2).r2?.text).toContain(ALONGSIDE);
      // Concurrent tools (readOnlyHint) are refused in the order their judgements end.
      const audit = await world.store.audit();
      expect(
        sorted(
          audit.map((entry) => [entry.action.input, entry.verdict?.source, entry.verdict?.verdict.kind]),
        ),
      ).toEqual([
        [refundInput('C1', 10), 'gate', 'kill'],
        [refundInput('C1', 20), 'gate', 'kill'],
      ]);
    }, 60_000);

    it('[refund, lookup] in one message: nothing runs', async () => {
      world = await createGateWorld();
      fake.script(
        toolUses([{ name: LOOKUP, input: { customer_id: 'C2' }, id: 'l0' }]),
        toolUses(
          [
            { name: REFUND, input: refundInput('C2', 30), id: 'r1' },
            { name: LOOKUP, input: { customer_id: 'C2' }, id: 'l1' },
          ],
          { chunkDelayMs },
        ),
        reply('done'),
      );
      await world.run(fake.url, { partialMessages: true, readOnlyHints });
      expect(world.refunds).toEqual([]);
      expect(world.lookups).toEqual(['C2']); // the first turn's lookup only
      expect(toolResultsSeen(fake, 2).r1?.text).toContain(ALONGSIDE);
      expect(toolResultsSeen(fake, 2).l1?.text).toContain(BESIDE);
      const audit = await world.store.audit();
      expect(sorted(audit.map((entry) => [entry.action.toolName, entry.verdict?.source]))).toEqual([
        [REFUND, 'gate'],
        [LOOKUP, 'gate'],
      ]);
    }, 60_000);
  });

  it('a write alone in its message still runs (the wait ends with the message)', async () => {
    world = await createGateWorld();
    fake.script(
      toolUses([{ name: LOOKUP, input: { customer_id: 'C3' }, id: 'l0' }]),
      toolUses([{ name: REFUND, input: refundInput('C3', 40), id: 'r1' }], { chunkDelayMs: 200 }),
      reply('done'),
    );
    await world.run(fake.url, { partialMessages: true });
    expect(world.refunds).toEqual([{ customer_id: 'C3', amount: 40 }]);
  }, 60_000);
});
