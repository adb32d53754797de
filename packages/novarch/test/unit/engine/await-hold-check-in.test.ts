import os from 'node:os';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type HoldRecord, NovarchEngine, type NovarchStore, openSqliteStore } from '../../../src/index.js';
import { WAITER_CHECK_IN_INTERVAL_MS } from '../../../src/model/hold-state.js';
import { createPendingHold } from '../../store/conformance-context.js';
import { createTempStoreFiles } from '../../store/temp-store-file.js';
import { FaultyStore } from '../gate/support/faulty-store.js';

// The engine's side of hold liveness: while awaitHold waits it checks in on the hold, at once and
// then every WAITER_CHECK_IN_INTERVAL_MS, whatever the poll interval. Fake timers drive the clock
// (setTimeout and Date, so the store's timestamps follow it); the store is a real SQLite file.

const files = createTempStoreFiles();
afterAll(() => files.cleanup());

const START = new Date('2026-03-01T10:00:00.000Z');
let base: NovarchStore;
let hold: HoldRecord;

beforeEach(async () => {
  base = await openSqliteStore(files.next());
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
  ({ hold } = await createPendingHold(base, new Date(START.getTime() + 300_000)));
});
afterEach(async () => {
  vi.useRealTimers();
  await base.close();
});

function engineOn(store: NovarchStore, pollIntervalMs: number): NovarchEngine {
  return new NovarchEngine({ store, rules: [], holdWindowSeconds: 300, pollIntervalMs });
}
const after = (ms: number) => new Date(START.getTime() + ms).toISOString();

describe('NovarchEngine.awaitHold check-ins', () => {
  it('checks in at once, then every 2 s however short the poll interval, and stops once decided', async () => {
    const store = new FaultyStore(base);
    const waiting = engineOn(store, 10).awaitHold(hold);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.callsOf('getHold')).toBeGreaterThanOrEqual(100);
    expect(store.callsOf('checkInHoldWaiter')).toBe(1);
    expect((await base.getHold(hold.id))?.waiter).toEqual({
      seenAt: after(0),
      pid: process.pid,
      host: os.hostname(),
    });

    await vi.advanceTimersByTimeAsync(WAITER_CHECK_IN_INTERVAL_MS);
    expect(store.callsOf('checkInHoldWaiter')).toBe(2);
    expect((await base.getHold(hold.id))?.waiter?.seenAt).toBe(after(WAITER_CHECK_IN_INTERVAL_MS));
    await vi.advanceTimersByTimeAsync(2 * WAITER_CHECK_IN_INTERVAL_MS);
    expect(store.callsOf('checkInHoldWaiter')).toBe(4);

    await base.decideHold(hold.id, 'approved', 'ana');
    await vi.advanceTimersByTimeAsync(20);
    const decided = await waiting;
    expect(decided).toMatchObject({ status: 'approved', decidedBy: 'ana' });
    expect(decided.waiter?.seenAt).toBe(after(3 * WAITER_CHECK_IN_INTERVAL_MS));
    await vi.advanceTimersByTimeAsync(3 * WAITER_CHECK_IN_INTERVAL_MS);
    expect(store.callsOf('checkInHoldWaiter')).toBe(4);
  });

  it('wakes up to check in when the poll interval is longer than the check-in interval', async () => {
    const store = new FaultyStore(base);
    const waiting = engineOn(store, 60_000).awaitHold(hold);
    await vi.advanceTimersByTimeAsync(3 * WAITER_CHECK_IN_INTERVAL_MS + 1);
    expect(store.callsOf('checkInHoldWaiter')).toBe(4);
    expect(store.callsOf('getHold')).toBe(4);
    await base.decideHold(hold.id, 'denied', 'ana', 'no');
    await vi.advanceTimersByTimeAsync(WAITER_CHECK_IN_INTERVAL_MS);
    expect(await waiting).toMatchObject({ status: 'denied' });
  });

  it('a failing check-in does not fail the wait: it is retried at the next poll', async () => {
    const store = new FaultyStore(base).fail('checkInHoldWaiter');
    const waiting = engineOn(store, 100).awaitHold(hold);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.callsOf('checkInHoldWaiter')).toBeGreaterThanOrEqual(10);
    expect((await base.getHold(hold.id))?.waiter).toBeUndefined();
    store.heal();
    await vi.advanceTimersByTimeAsync(150);
    expect((await base.getHold(hold.id))?.waiter?.pid).toBe(process.pid);
    const calls = store.callsOf('checkInHoldWaiter');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.callsOf('checkInHoldWaiter')).toBe(calls);
    await base.decideHold(hold.id, 'approved', 'ana');
    await vi.advanceTimersByTimeAsync(100);
    expect(await waiting).toMatchObject({ status: 'approved' });
  });
});
