import { describe, expect } from 'vitest';
import type { HoldApprovalPolicy } from '../../src/index.js';
import { type ConformanceContext, inSeconds, recordRefund, scope } from './conformance-context.js';

/** Holds that need several approvals, or carry an edited input: the approvals list and its races. */
export function describeApprovalCases({ store, check }: ConformanceContext): void {
  async function heldWith(policy: HoldApprovalPolicy | undefined, deadline = inSeconds(300)) {
    const session = await store().createSession(scope(), 300);
    const action = await recordRefund(store(), session);
    return store().createHold(action.id, session.id, deadline, policy);
  }
  const two: HoldApprovalPolicy = { approvals: 2, approverGroups: [{ ruleId: 'R-1', groups: ['finance'] }] };

  describe('approvals', () => {
    check('a hold keeps its policy; the default policy is not stored', async () => {
      const hold = await heldWith(two);
      expect(hold.policy).toEqual(two);
      expect((await store().getHold(hold.id))?.policy).toEqual(two);
      const plain = await heldWith({ approvals: 1, approverGroups: [] });
      expect(plain).not.toHaveProperty('policy');
    });

    check('two approvals by distinct operators approve it; the first one leaves it pending', async () => {
      const hold = await heldWith(two);
      const first = await store().decideHold(hold.id, 'approved', 'ana', 'fine');
      expect(first.status).toBe('pending');
      expect(first.approvals).toEqual([
        { operator: 'ana', at: expect.any(String), rationale: 'fine', osUser: expect.any(String) },
      ]);
      const again = await store().decideHold(hold.id, 'approved', 'ana');
      expect(again).toEqual(first);
      const second = await store().decideHold(hold.id, 'approved', 'bo');
      expect(second).toMatchObject({ status: 'approved', decidedBy: 'bo' });
      expect(second.approvals?.map((approval) => approval.operator)).toEqual(['ana', 'bo']);
    });

    check('a deny after one approval ends the hold', async () => {
      const hold = await heldWith(two);
      await store().decideHold(hold.id, 'approved', 'ana');
      const denied = await store().decideHold(hold.id, 'denied', 'bo', 'no');
      expect(denied).toMatchObject({ status: 'denied', decidedBy: 'bo', rationale: 'no' });
      expect(await store().decideHold(hold.id, 'approved', 'cy')).toEqual(denied);
    });

    check(
      'eight operators approving a hold that needs three at once: it is approved exactly once',
      async () => {
        const hold = await heldWith({ approvals: 3, approverGroups: [] });
        const operators = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
        await Promise.all(operators.map((name) => store().decideHold(hold.id, 'approved', name)));
        const stored = await store().getHold(hold.id);
        expect(stored?.status).toBe('approved');
        expect(stored?.approvals).toHaveLength(3);
        expect(stored?.approvals?.at(-1)?.operator).toBe(stored?.decidedBy);
      },
    );

    check('an approval after the deadline is stored as timed_out, never as an approval', async () => {
      const hold = await heldWith(two, inSeconds(-1));
      const late = await store().decideHold(hold.id, 'approved', 'ana');
      expect(late.status).toBe('timed_out');
      expect(late.rationale).toMatch(
        /^The deadline \(.+\) passed before this decision arrived \(approved\)\.$/,
      );
    });

    check('an approval with an edit keeps the edit and who made it', async () => {
      const hold = await heldWith(undefined);
      const edited = await store().decideHold(hold.id, 'approved', 'ana', 'capped', {
        input: { customerId: 'c-1', amount: 50 },
      });
      expect(edited).toMatchObject({
        status: 'approved',
        decidedBy: 'ana',
        edit: { input: { customerId: 'c-1', amount: 50 }, by: 'ana' },
      });
      expect((await store().getHold(hold.id))?.edit).toEqual(edited.edit);
    });

    check('an edit after another operator approved the original is refused', async () => {
      const hold = await heldWith(two);
      await store().decideHold(hold.id, 'approved', 'ana');
      await expect(
        store().decideHold(hold.id, 'approved', 'bo', undefined, { input: { amount: 1 } }),
      ).rejects.toThrow(
        /already has approvals of the agent's input: an edit would approve something they did not see/,
      );
      expect((await store().getHold(hold.id))?.approvals).toHaveLength(1);
    });
  });
}
