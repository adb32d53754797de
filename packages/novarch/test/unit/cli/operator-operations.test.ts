import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode, exitCodeFor } from '../../../src/cli/exit-codes.js';
import { OperationRefusedError, OperatorUsageError } from '../../../src/errors.js';
import { NovarchConfigError, NovarchStoreError, openSqliteStore } from '../../../src/index.js';
import { WAITER_STALE_AFTER_MS } from '../../../src/model/hold-state.js';
import { decideHoldAsOperator } from '../../../src/operations/decide-hold-as-operator.js';
import { listHoldSummaries, loadHoldDetail } from '../../../src/operations/hold-operations.js';
import { killSessionAsOperator } from '../../../src/operations/session-operations.js';
import { createPendingHold } from '../../store/conformance-context.js';
import { createTempStoreFiles } from '../../store/temp-store-file.js';

const files = createTempStoreFiles();
afterAll(() => files.cleanup());

async function storeWithHold(deadline: Date) {
  const file = files.next();
  const store = await openSqliteStore(file);
  const { session, hold } = await createPendingHold(store, deadline);
  return { file, store, session, hold };
}

/** How a refusal of an abandoned or expired hold ends, after the sentence saying which it is. */
const NOTHING_WAITS =
  'No agent waits for this decision: the write will not run, whatever you decide. ' +
  'If it is still wanted, the agent must retry the action.\n' +
  'To close the hold anyway, rerun with --force: it is stored as timed_out under your name, ' +
  'and nothing runs.\nNothing was changed.';

const inAnHour = () => new Date(Date.now() + 3_600_000);
const later = (timestamp: string, ms: number) => new Date(Date.parse(timestamp) + ms);

/** A hold an agent process checked in on; `now` is just after the check-in. */
async function checkedInHold(deadline = inAnHour()) {
  const held = await storeWithHold(deadline);
  await held.store.checkInHoldWaiter(held.hold.id, { pid: 4242, host: 'agent-7' });
  const hold = await held.store.getHold(held.hold.id);
  if (hold?.waiter === undefined) throw new Error('the check-in was not stored');
  return { ...held, hold, seenAt: hold.waiter.seenAt };
}

describe('operator decisions and the waiting agent', () => {
  it('decides a hold an agent process waits on (--force changes nothing there)', async () => {
    const { file, store, hold, seenAt } = await checkedInHold();
    const now = later(seenAt, WAITER_STALE_AFTER_MS);
    const decided = await decideHoldAsOperator(
      store,
      { holdId: hold.id, status: 'approved', operator: 'ana', rationale: 'ok', force: true },
      file,
      now,
    );
    expect(decided).toEqual({ hold: await store.getHold(hold.id) });
    expect(decided.hold).toMatchObject({ status: 'approved', decidedBy: 'ana', rationale: 'ok' });
    await store.close();
  });

  it.each(['approved', 'denied', 'skipped'] as const)(
    'refuses to %s an abandoned hold, saying why and what to do; nothing is changed',
    async (status) => {
      const { file, store, hold, seenAt } = await checkedInHold();
      const now = later(seenAt, WAITER_STALE_AFTER_MS + 1);
      const refused = decideHoldAsOperator(
        store,
        { holdId: hold.id, status, operator: 'ana', rationale: 'why' },
        file,
        now,
      );
      await expect(refused).rejects.toBeInstanceOf(OperationRefusedError);
      await expect(refused).rejects.toThrow(
        `Hold ${hold.id} is abandoned: no agent process has checked in on it since ${seenAt} ` +
          '(pid 4242 on agent-7).\n' +
          NOTHING_WAITS,
      );
      expect(await store.getHold(hold.id)).toEqual(hold);
      await store.close();
    },
  );

  it('refuses a hold no process ever checked in on, counting from its creation', async () => {
    const { file, store, hold } = await storeWithHold(inAnHour());
    const now = later(hold.createdAt, WAITER_STALE_AFTER_MS + 1);
    await expect(
      decideHoldAsOperator(store, { holdId: hold.id, status: 'approved', operator: 'ana' }, file, now),
    ).rejects.toThrow(
      `Hold ${hold.id} is abandoned: no agent process has checked in on it since it was created at ${hold.createdAt}.\n`,
    );
    await store.close();
  });

  it('refuses an expired hold before the store sees it: it stays pending', async () => {
    const { file, store, hold } = await checkedInHold(new Date(Date.now() - 1000));
    const refused = decideHoldAsOperator(
      store,
      { holdId: hold.id, status: 'approved', operator: 'ana' },
      file,
      new Date(),
    );
    await expect(refused).rejects.toBeInstanceOf(OperationRefusedError);
    await expect(refused).rejects.toThrow(
      `Hold ${hold.id} is expired: its deadline (${hold.deadline}) passed while it was still pending.\n` +
        NOTHING_WAITS,
    );
    expect(await store.getHold(hold.id)).toEqual(hold);
    await store.close();
  });

  it('--force closes an abandoned hold as timed_out, naming the command, the reason and the rationale', async () => {
    const { file, store, hold, seenAt } = await checkedInHold();
    const now = later(seenAt, 60_000);
    const closed = await decideHoldAsOperator(
      store,
      { holdId: hold.id, status: 'approved', operator: 'ana', rationale: ' charged twice ', force: true },
      file,
      now,
    );
    expect(closed.forced).toBe('abandoned');
    expect(closed.hold).toEqual({
      ...hold,
      status: 'timed_out',
      decidedAt: expect.any(String),
      decidedBy: 'ana',
      decidedByOsUser: expect.any(String),
      rationale:
        'Closed with novarch holds approve --force: no agent process had checked in since ' +
        `${seenAt} (pid 4242 on agent-7), so the write did not run. Rationale: charged twice`,
    });
    expect(await store.getHold(hold.id)).toEqual(closed.hold);
    await store.close();
  });

  it('--force closes an expired hold as timed_out too (a skip without a rationale)', async () => {
    const { file, store, hold } = await storeWithHold(new Date(Date.now() - 1000));
    const closed = await decideHoldAsOperator(
      store,
      { holdId: hold.id, status: 'skipped', operator: 'bob', force: true },
      file,
      new Date(),
    );
    expect(closed).toEqual({
      forced: 'expired',
      hold: expect.objectContaining({
        status: 'timed_out',
        decidedBy: 'bob',
        rationale: `Closed with novarch holds skip --force: the deadline (${hold.deadline}) had passed, so the write did not run.`,
      }),
    });
    await store.close();
  });

  it('a decided hold is refused even with --force, in one sentence (no doubled period)', async () => {
    const { file, store, hold } = await storeWithHold(new Date(Date.now() - 1000));
    const timedOut = await store.decideHold(hold.id, 'approved', 'bob');
    expect(timedOut.rationale).toBe(
      `The deadline (${hold.deadline}) passed before this decision arrived (approved).`,
    );
    await expect(
      decideHoldAsOperator(
        store,
        { holdId: hold.id, status: 'approved', operator: 'ana', force: true },
        file,
        new Date(),
      ),
    ).rejects.toThrow(
      new RegExp(
        `^Hold ${hold.id} was already timed_out by bob at ${timedOut.decidedAt}: The deadline \\(${hold.deadline}\\) ` +
          'passed before this decision arrived \\(approved\\)\\. Nothing was changed\\.$',
      ),
    );
    await store.close();
  });

  it('a decision the deadline overtakes is stored as timed_out and refused in one sentence', async () => {
    // The operator's clock says the hold is still waited on; by the time the store writes, the
    // deadline has passed (the store's clock decides).
    const { file, store, hold } = await storeWithHold(new Date(Date.now() - 1000));
    const late = decideHoldAsOperator(
      store,
      { holdId: hold.id, status: 'approved', operator: 'ana' },
      file,
      later(hold.deadline, -500),
    );
    await expect(late).rejects.toBeInstanceOf(OperationRefusedError);
    const stored = await store.getHold(hold.id);
    expect(stored?.status).toBe('timed_out');
    await expect(late).rejects.toThrow(
      new RegExp(
        `^Hold ${hold.id} was not approved: it is timed_out by ana at ${stored?.decidedAt}: The deadline ` +
          `\\(${hold.deadline}\\) passed before this decision arrived \\(approved\\)\\.$`,
      ),
    );
    await store.close();
  });
});

describe('operator operations', () => {
  it('needs a rationale to deny and an operator name, before touching the store', async () => {
    const { file, store, hold } = await storeWithHold(inAnHour());
    const deny = { holdId: hold.id, status: 'denied' as const, operator: 'ana', rationale: '  ' };
    await expect(decideHoldAsOperator(store, deny, file, new Date())).rejects.toBeInstanceOf(
      OperatorUsageError,
    );
    const nameless = { holdId: hold.id, status: 'approved' as const, operator: '' };
    await expect(decideHoldAsOperator(store, nameless, file, new Date())).rejects.toThrow(
      'No operator name: pass --operator NAME (or set USER).',
    );
    expect((await store.getHold(hold.id))?.status).toBe('pending');
    await store.close();
  });

  it('loads a hold with no verdict and no evidence, with its state at the given time', async () => {
    const { file, store, hold, session } = await storeWithHold(inAnHour());
    const detail = await loadHoldDetail(store, hold.id, file, new Date(hold.createdAt));
    expect(detail).toMatchObject({
      hold,
      state: 'waiting',
      session,
      action: { id: hold.actionId },
      citedEvidence: [],
    });
    expect(detail.verdict).toBeUndefined();
    const abandoned = await loadHoldDetail(store, hold.id, file, later(hold.createdAt, 60_000));
    expect(abandoned.state).toBe('abandoned');
    await store.close();
  });

  it('lists holds with the state of the pending ones', async () => {
    const { store, hold } = await storeWithHold(inAnHour());
    const now = later(hold.createdAt, 60_000);
    expect(await listHoldSummaries(store, {}, now)).toEqual([
      { hold, action: expect.objectContaining({ id: hold.actionId }), state: 'abandoned' },
    ]);
    // A state filters pending holds by their state.
    expect(await listHoldSummaries(store, { status: 'abandoned' }, now)).toHaveLength(1);
    expect(await listHoldSummaries(store, { status: 'waiting' }, now)).toEqual([]);
    expect(await listHoldSummaries(store, { status: 'waiting' }, later(hold.createdAt, 1_000))).toHaveLength(
      1,
    );
    const decided = await store.decideHold(hold.id, 'denied', 'ana', 'no');
    expect(await listHoldSummaries(store, { status: 'abandoned' }, now)).toEqual([]);
    const [summary] = await listHoldSummaries(store, {}, now);
    expect(summary).toEqual({ hold: decided, action: expect.objectContaining({ id: hold.actionId }) });
    expect(summary).not.toHaveProperty('state');
    await store.close();
  });

  it('kills once, naming the operator; a second kill is refused', async () => {
    const { file, store, session } = await storeWithHold(inAnHour());
    const killed = await killSessionAsOperator(
      store,
      { sessionId: session.id, reason: ' loop ', operator: 'ana' },
      file,
    );
    expect(killed.killReason).toBe('operator ana: loop');
    const again = killSessionAsOperator(store, { sessionId: session.id, reason: 'x', operator: 'bob' }, file);
    await expect(again).rejects.toThrow(`Session ${session.id} was already killed at ${killed.killedAt}`);
    await expect(
      killSessionAsOperator(store, { sessionId: session.id, reason: ' ', operator: 'bob' }, file),
    ).rejects.toBeInstanceOf(OperatorUsageError);
    await store.close();
  });
});

describe('exitCodeFor', () => {
  it('maps refusals to 3, usage and configuration errors to 2, everything else to 1', () => {
    expect(exitCodeFor(new OperationRefusedError('x'))).toBe(ExitCode.refused);
    expect(exitCodeFor(new OperatorUsageError('x'))).toBe(ExitCode.usage);
    expect(exitCodeFor(new NovarchConfigError([]))).toBe(ExitCode.usage);
    expect(exitCodeFor(new NovarchStoreError('x'))).toBe(ExitCode.internal);
    expect(exitCodeFor(new TypeError('x'))).toBe(ExitCode.internal);
  });
});
