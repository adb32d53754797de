import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { denyReason, gateHooks, isNoOpinion } from './support/hook-calls.js';
import {
  LOOKUP,
  type NovarchTestBase,
  openNovarchTestBase,
  openTestGate,
  REFUND,
  testEngine,
} from './support/novarch-test-world.js';

// Issue 24: a write judged while another agent's read runs (a background subagent's) would be
// judged without that read. It waits for the read to report, and is refused when it does not.

let base: NovarchTestBase;
beforeAll(async () => {
  base = await openNovarchTestBase();
});
afterAll(() => base.close());

const refund = (customer: string, amount: number) => ({ customer_id: customer, amount, reasoning: 'asked' });
const lookupOutput = { content: [{ type: 'text', text: 'customer C1: in good standing' }] };

describe("a write while another agent's read is running", () => {
  it('waits for the read to report, and is judged on it', async () => {
    const { gate } = await openTestGate(testEngine(base, base.store));
    const hooks = gateHooks(gate);
    expect(isNoOpinion(await hooks.pre(LOOKUP, { customer_id: 'C1' }, 'l1', { agentId: 'sub-1' }))).toBe(
      true,
    );
    const write = hooks.pre(REFUND, refund('C1', 50), 'r1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await hooks.post(LOOKUP, { customer_id: 'C1' }, 'l1', lookupOutput);
    // TEAM-1 (a refund needs a lookup of the same customer) passes on the subagent's lookup.
    expect(isNoOpinion(await write)).toBe(true);
  });

  it('is refused as evidence incomplete when the read has not reported within 10 s', async () => {
    const { gate } = await openTestGate(testEngine(base, base.store));
    const hooks = gateHooks(gate);
    await hooks.pre(LOOKUP, { customer_id: 'C2' }, 'l2', { agentId: 'sub-1' });
    // The gate's clock is faked from here: the 10 s wait passes at once, and the write's other
    // deadlines (the hook's, the turn's) move with it.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      let answered = false;
      const write = hooks.pre(REFUND, refund('C2', 50), 'r2').finally(() => {
        answered = true;
      });
      const started = Date.now();
      // Store calls between the timers settle on the event loop: advance in steps until answered.
      const advanceUntil = async (done: () => boolean) => {
        for (let step = 0; step < 200 && !done(); step++) {
          await vi.advanceTimersByTimeAsync(250);
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      await advanceUntil(() => answered || Date.now() - started >= 9_500);
      expect(answered).toBe(false); // still waiting for the read at 9.5 s
      await advanceUntil(() => answered);
      expect(denyReason(await write)).toBe(
        `Novarch: evidence incomplete: ${LOOKUP} (call l2) of another agent had not finished, so this write cannot be judged on its result; try again once it has`,
      );
    } finally {
      vi.useRealTimers();
    }
  }, 30_000);
});
