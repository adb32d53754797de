import { describe, expect, it } from 'vitest';
import type { HoldRecord } from '../../src/index.js';
import {
  lastCheckIn,
  pendingHoldState,
  WAITER_CHECK_IN_INTERVAL_MS,
  WAITER_STALE_AFTER_MS,
} from '../../src/model/hold-state.js';

const CREATED = Date.parse('2026-03-01T10:00:00.000Z');
const DEADLINE = Date.parse('2026-03-01T10:05:00.000Z');
const at = (ms: number) => new Date(ms);
const iso = (ms: number) => new Date(ms).toISOString();

const pending: HoldRecord = {
  schemaVersion: 1,
  id: 'hold_1',
  actionId: 'act_1',
  sessionId: 'ses_1',
  status: 'pending',
  createdAt: iso(CREATED),
  deadline: iso(DEADLINE),
};
const seenAt = (ms: number): HoldRecord => ({ ...pending, waiter: { seenAt: iso(ms), pid: 42, host: 'h' } });

describe('pendingHoldState (clock injected)', () => {
  it('is stale only after five missed check-ins (10 s)', () => {
    expect(WAITER_CHECK_IN_INTERVAL_MS).toBe(2_000);
    expect(WAITER_STALE_AFTER_MS).toBe(10_000);
  });

  it('waiting up to the threshold after the last check-in, abandoned just past it', () => {
    const seen = CREATED + 60_000;
    expect(pendingHoldState(seenAt(seen), at(seen))).toBe('waiting');
    expect(pendingHoldState(seenAt(seen), at(seen + WAITER_STALE_AFTER_MS))).toBe('waiting');
    expect(pendingHoldState(seenAt(seen), at(seen + WAITER_STALE_AFTER_MS + 1))).toBe('abandoned');
  });

  it('counts from the creation when no process has checked in (holds stored before check-ins)', () => {
    expect(lastCheckIn(pending)).toBe(pending.createdAt);
    expect(lastCheckIn(seenAt(CREATED + 5))).toBe(iso(CREATED + 5));
    expect(pendingHoldState(pending, at(CREATED + 1_000))).toBe('waiting');
    expect(pendingHoldState(pending, at(CREATED + WAITER_STALE_AFTER_MS + 1))).toBe('abandoned');
  });

  it('expired from the deadline on, even with a fresh check-in', () => {
    expect(pendingHoldState(seenAt(DEADLINE - 1), at(DEADLINE - 1))).toBe('waiting');
    expect(pendingHoldState(seenAt(DEADLINE - 1), at(DEADLINE))).toBe('expired');
    expect(pendingHoldState(pending, at(DEADLINE + 3_600_000))).toBe('expired');
  });

  it('a check-in ahead of the clock (skew) counts as waiting', () => {
    expect(pendingHoldState(seenAt(CREATED + 30_000), at(CREATED))).toBe('waiting');
  });

  it('is undefined for a decided hold, whatever the clock says', () => {
    const decided: HoldRecord = {
      ...pending,
      status: 'approved',
      decidedAt: iso(CREATED + 1),
      decidedBy: 'ana',
    };
    expect(pendingHoldState(decided, at(CREATED + 1))).toBeUndefined();
    expect(pendingHoldState({ ...decided, status: 'timed_out' }, at(DEADLINE + 1))).toBeUndefined();
  });
});
