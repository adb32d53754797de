import { afterEach, describe, expect, it } from 'vitest';
import { exitCodeFor, isExpectedError } from '../../src/cli/exit-codes.js';
import { pendingHoldState } from '../../src/model/hold-state.js';
import {
  WAITER_STALE_AFTER_VARIABLE,
  waiterCheckInIntervalMs,
  waiterStaleAfterMs,
} from '../../src/model/waiter-timing.js';

const variable = WAITER_STALE_AFTER_VARIABLE;

afterEach(() => {
  delete process.env[variable];
});

describe(`${WAITER_STALE_AFTER_VARIABLE} (a test and operations knob)`, () => {
  it('is 10 s with check-ins every 2 s when unset or empty', () => {
    expect(variable).toBe('NOVARCH_WAITER_STALE_AFTER_MS');
    expect([waiterStaleAfterMs({}), waiterCheckInIntervalMs({})]).toEqual([10_000, 2_000]);
    expect(waiterStaleAfterMs({ [variable]: ' ' })).toBe(10_000);
  });

  it('sets the stale time, and the check-ins come at a fifth of it', () => {
    expect([
      waiterStaleAfterMs({ [variable]: '500' }),
      waiterCheckInIntervalMs({ [variable]: '500' }),
    ]).toEqual([500, 100]);
  });

  it("is read from the process's environment by pendingHoldState", () => {
    const hold = {
      schemaVersion: 1 as const,
      id: 'hold_1',
      actionId: 'act_1',
      sessionId: 'ses_1',
      status: 'pending' as const,
      createdAt: '2026-03-01T10:00:00.000Z',
      deadline: '2026-03-01T10:05:00.000Z',
    };
    const oneSecondLater = new Date('2026-03-01T10:00:01.000Z');
    expect(pendingHoldState(hold, oneSecondLater)).toBe('waiting');
    process.env[variable] = '500';
    expect(pendingHoldState(hold, oneSecondLater)).toBe('abandoned');
  });

  it.each(['abc', '-5', '1.5', '99', '3600001', '1e4'])('refuses %s, saying the range (exit 2)', (value) => {
    let thrown: unknown;
    try {
      waiterStaleAfterMs({ [variable]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toBe(
      `NOVARCH_WAITER_STALE_AFTER_MS is "${value}": it must be a whole number of milliseconds from 100 to 3600000 (default 10000). Unset it to use the default.`,
    );
    expect(isExpectedError(thrown)).toBe(true);
    expect(exitCodeFor(thrown)).toBe(2);
  });
});
