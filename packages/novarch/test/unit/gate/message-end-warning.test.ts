import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistantToolUses, gateHooks } from './support/hook-calls.js';
import {
  type NovarchTestBase,
  openNovarchTestBase,
  openTestGate,
  REFUND,
  testEngine,
} from './support/novarch-test-world.js';

// Issue 24: fed the stream without partial messages, the gate cannot see where a write's message
// ends; it says so (once per gate) instead of promising what it cannot.

let base: NovarchTestBase;
beforeAll(async () => {
  base = await openNovarchTestBase();
});
afterAll(() => base.close());

describe('a gate fed the stream without partial messages', () => {
  it('warns once that a write placed before other calls of its message may run', async () => {
    const warnings: string[] = [];
    const { gate } = await openTestGate(testEngine(base, base.store), {
      warn: (message) => warnings.push(message),
    });
    const hooks = gateHooks(gate);
    for (const id of ['r1', 'r2']) {
      gate.observe(assistantToolUses(`m-${id}`, [id]));
      await hooks.pre(REFUND, { customer_id: 'C1', amount: 10, reasoning: 'asked' }, id);
    }
    expect(warnings).toEqual([
      'novarch: the gate is fed the message stream without partial messages, so it cannot see where an assistant message ends: a write placed before other calls of its message may run. Run the query with includePartialMessages: true for the full guarantee.',
    ]);
  });
});
