import { describe, expect } from 'vitest';
import type { HoldStatus } from '../../src/index.js';
import {
  type ConformanceContext,
  createPendingHold,
  ISO_TIMESTAMP,
  inSeconds,
  recordRefund,
} from './conformance-context.js';

/** Holds: create, read, list with filters, first-decision-wins, and the waiter's check-ins. */
export function describeHoldCases({ store, check }: ConformanceContext): void {
  const pendingHold = (deadline?: Date) => createPendingHold(store(), deadline);

  describe('holds', () => {
    check('createHold stores a pending, versioned hold; getHold reads it back', async () => {
      const deadline = inSeconds(300);
      const { session, action, hold } = await pendingHold(deadline);
      expect(hold).toEqual({
        schemaVersion: 1,
        id: expect.stringMatching(/^hold_/),
        actionId: action.id,
        sessionId: session.id,
        status: 'pending',
        createdAt: expect.stringMatching(ISO_TIMESTAMP),
        deadline: deadline.toISOString(),
      });
      expect(await store().getHold(hold.id)).toEqual(hold);
      expect(await store().getHold('hold_missing')).toBeUndefined();
    });

    check('createHold refuses a second hold on the same action and an invalid deadline', async () => {
      const { session, action } = await pendingHold();
      await expect(store().createHold(action.id, session.id, inSeconds(60))).rejects.toThrow(
        /hold action act_/,
      );
      const other = await recordRefund(store(), session);
      await expect(store().createHold(other.id, session.id, new Date(Number.NaN))).rejects.toThrow(
        /valid deadline/,
      );
      expect(await store().listHolds({ sessionId: session.id })).toHaveLength(1);
    });

    check('listHolds returns holds in creation order, filtered by status and session', async () => {
      const first = await pendingHold();
      const second = await pendingHold();
      const third = await pendingHold();
      await store().decideHold(second.hold.id, 'denied', 'alice', 'no');
      const ids = async (filter?: { status?: HoldStatus; sessionId?: string }) =>
        (await store().listHolds(filter)).map((hold) => hold.id);
      expect(await ids()).toEqual([first.hold.id, second.hold.id, third.hold.id]);
      expect(await ids({ status: 'pending' })).toEqual([first.hold.id, third.hold.id]);
      expect(await ids({ status: 'denied' })).toEqual([second.hold.id]);
      expect(await ids({ sessionId: third.session.id })).toEqual([third.hold.id]);
      expect(await ids({ status: 'denied', sessionId: third.session.id })).toEqual([]);
    });

    check('decideHold records the decision, who made it and why', async () => {
      const { hold } = await pendingHold();
      const decided = await store().decideHold(hold.id, 'approved', 'operator:élodie', 'looked fine ✓');
      expect(decided).toEqual({
        ...hold,
        status: 'approved',
        decidedAt: expect.stringMatching(ISO_TIMESTAMP),
        decidedBy: 'operator:élodie',
        decidedByOsUser: expect.any(String),
        rationale: 'looked fine ✓',
      });
      expect(await store().getHold(hold.id)).toEqual(decided);
    });

    check('decideHold without a rationale stores none', async () => {
      const { hold } = await pendingHold();
      const decided = await store().decideHold(hold.id, 'skipped', 'bob');
      expect(decided.status).toBe('skipped');
      expect(decided).not.toHaveProperty('rationale');
    });

    check('the first decision wins; later ones return it unchanged', async () => {
      const { hold } = await pendingHold();
      const first = await store().decideHold(hold.id, 'denied', 'alice', 'too much');
      const second = await store().decideHold(hold.id, 'approved', 'bob', 'fine by me');
      const third = await store().decideHold(hold.id, 'timed_out', 'gate');
      expect(second).toEqual(first);
      expect(third).toEqual(first);
      expect(await store().getHold(hold.id)).toEqual(first);
    });

    check('racing decisions: exactly one wins and every caller sees it', async () => {
      const { hold } = await pendingHold();
      const statuses: Exclude<HoldStatus, 'pending'>[] = ['approved', 'denied', 'skipped', 'timed_out'];
      const results = await Promise.all(
        statuses.flatMap((status) =>
          [1, 2].map((n) => store().decideHold(hold.id, status, `${status}-${n}`)),
        ),
      );
      const winner = await store().getHold(hold.id);
      expect(winner?.status).not.toBe('pending');
      for (const result of results) expect(result).toEqual(winner);
    });

    check('an operator decision after the deadline is stored as timed_out', async () => {
      const { hold } = await pendingHold(inSeconds(-1));
      const decided = await store().decideHold(hold.id, 'approved', 'late-operator', 'sorry');
      expect(decided).toMatchObject({ status: 'timed_out', decidedBy: 'late-operator' });
      expect(decided.rationale).toBe(
        `The deadline (${hold.deadline}) passed before this decision arrived (approved: sorry).`,
      );
    });

    check('a timeout is recorded as timed_out', async () => {
      const { hold } = await pendingHold(inSeconds(-1));
      const decided = await store().decideHold(hold.id, 'timed_out', 'gate', 'no operator answered');
      expect(decided).toMatchObject({
        status: 'timed_out',
        decidedBy: 'gate',
        rationale: 'no operator answered',
      });
    });

    check('checkInHoldWaiter records who waits on a pending hold, and when', async () => {
      const { hold } = await pendingHold();
      expect(hold).not.toHaveProperty('waiter');
      const before = Date.now();
      await store().checkInHoldWaiter(hold.id, { pid: 4242, host: 'agent-host ✓' });
      const checkedIn = await store().getHold(hold.id);
      expect(checkedIn).toEqual({
        ...hold,
        waiter: { seenAt: expect.stringMatching(ISO_TIMESTAMP), pid: 4242, host: 'agent-host ✓' },
      });
      expect(Date.parse(checkedIn?.waiter?.seenAt ?? '')).toBeGreaterThanOrEqual(before - 1);
      expect(await store().listHolds({ status: 'pending' })).toEqual([checkedIn]);
      expect((await store().audit())[0]?.hold).toEqual(checkedIn);
    });

    check('a later check-in replaces the earlier one (another process may take over)', async () => {
      const { hold } = await pendingHold();
      await store().checkInHoldWaiter(hold.id, { pid: 1, host: 'a' });
      const first = (await store().getHold(hold.id))?.waiter;
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store().checkInHoldWaiter(hold.id, { pid: 2, host: 'b' });
      const second = (await store().getHold(hold.id))?.waiter;
      expect(second).toMatchObject({ pid: 2, host: 'b' });
      expect((second?.seenAt ?? '') > (first?.seenAt ?? '')).toBe(true);
    });

    check('a check-in leaves a decided hold unchanged, and the decision keeps the last one', async () => {
      const { hold } = await pendingHold();
      await store().checkInHoldWaiter(hold.id, { pid: 7, host: 'h' });
      const decided = await store().decideHold(hold.id, 'approved', 'ana');
      expect(decided.waiter).toMatchObject({ pid: 7, host: 'h' });
      await store().checkInHoldWaiter(hold.id, { pid: 8, host: 'other' });
      expect(await store().getHold(hold.id)).toEqual(decided);
    });

    check('checkInHoldWaiter of an unknown hold, or with a bad pid, fails and records nothing', async () => {
      await expect(store().checkInHoldWaiter('hold_missing', { pid: 1, host: 'h' })).rejects.toThrow(
        'No hold hold_missing: no check-in was recorded.',
      );
      const { hold } = await pendingHold();
      for (const pid of [-1, 1.5, Number.NaN]) {
        await expect(store().checkInHoldWaiter(hold.id, { pid, host: 'h' })).rejects.toThrow(
          `A hold waiter's pid must be a whole number ≥ 0; got ${pid}.`,
        );
      }
      expect(await store().getHold(hold.id)).toEqual(hold);
    });

    check('decideHold of an unknown hold, or as pending, fails and says so', async () => {
      await expect(store().decideHold('hold_missing', 'approved', 'alice')).rejects.toThrow(
        'No hold hold_missing',
      );
      const { hold } = await pendingHold();
      // @ts-expect-error: 'pending' is not a decision; the store checks at run time too.
      await expect(store().decideHold(hold.id, 'pending', 'alice')).rejects.toThrow(
        /approved, denied, skipped/,
      );
      expect((await store().getHold(hold.id))?.status).toBe('pending');
    });
  });
}
