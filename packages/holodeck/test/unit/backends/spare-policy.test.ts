import { describe, expect, it } from 'vitest';
import {
  CLI_PROCESS_BYTES,
  decideSpare,
  median,
  processBound,
  type SparePolicyInput,
} from '../../../src/backends/claude/spare-policy.js';

const GB = 1024 ** 3;

/** Four runs waiting on a 2 s model since t = 0, start-ups of 800 ms, plenty of memory; now = 1 s. */
function input(overrides: Partial<SparePolicyInput> = {}): SparePolicyInput {
  return {
    now: 1000,
    startupMs: 800,
    answerMs: 2000,
    waitingSince: [0, 0, 0, 0],
    spares: 0,
    runsToCome: 16,
    alive: 4,
    maxProcesses: 6,
    freeMemoryBytes: 16 * GB,
    ...overrides,
  };
}

describe('decideSpare', () => {
  it('starts a spare when the next answer is expected later than a start-up, but not much later', () => {
    // next answer in 1000 ms: after a start-up (800), within the lead (1.5 x 800 = 1200)
    expect(decideSpare(input())).toMatchObject({ start: true });
  });

  it('waits when a spare would sit idle, and says when to ask again', () => {
    // at t = 0 the answer is 2000 ms away: a spare started now would idle 1200 ms
    const decision = decideSpare(input({ now: 0 }));
    expect(decision).toMatchObject({ start: false, recheckInMs: 2000 - 1200 });
    expect(decision.reason).toMatch(/would wait idle/);
    // asked again then, it starts one
    expect(decideSpare(input({ now: 800 }))).toMatchObject({ start: true });
  });

  it('starts none for a model that answers faster than a process starts', () => {
    // a 100 ms model: the next answer is at most 100 ms away, never worth a start-up of 800 ms
    const decision = decideSpare(input({ answerMs: 100, now: 50, waitingSince: [0, 10, 20, 30] }));
    expect(decision.start).toBe(false);
    expect(decision.reason).toBe('the next answer is expected in 50 ms, within a start-up (800 ms)');
    // ask again once the slowest could be overdue past a start-up
    expect(decision.recheckInMs).toBe(800 - 50 + 1);
  });

  it('starts none before a start-up was measured', () => {
    expect(decideSpare(input({ startupMs: undefined }))).toEqual({
      start: false,
      reason: 'no start-up measured yet',
    });
  });

  it('before any answer was measured, expects a run to wait about as long again as it has', () => {
    const unknown = { answerMs: undefined, waitingSince: [0, 0, 0, 0] };
    // waited 500 ms: expect ~500 more, less than a start-up: not yet; ask again when it passes 800 ms
    expect(decideSpare(input({ ...unknown, now: 500 }))).toMatchObject({ start: false, recheckInMs: 301 });
    // waited 900 ms: ~900 more, past a start-up
    expect(decideSpare(input({ ...unknown, now: 900 }))).toMatchObject({ start: true });
  });

  it('a run past the measured median is expected to wait as long again', () => {
    // answers took 1000 ms; this one has waited 1000 ms already: ~1000 more
    expect(decideSpare(input({ answerMs: 1000, now: 1000, waitingSince: [0] }))).toMatchObject({
      start: true,
    });
  });

  it('gives the soonest answers the spares already started, and looks at the next one', () => {
    // answers in 1000, 1000, 1900, 1900 ms: two spares cover the first two; the third is 1900 away
    const waitingSince = [0, 0, 900, 900];
    expect(decideSpare(input({ waitingSince, spares: 1, alive: 5 }))).toMatchObject({ start: true });
    expect(decideSpare(input({ waitingSince, spares: 2, alive: 6, maxProcesses: 8 }))).toMatchObject({
      start: false,
      recheckInMs: 1900 - 1200,
    });
    expect(decideSpare(input({ spares: 4, alive: 8, maxProcesses: 9 }))).toEqual({
      start: false,
      reason: 'every running run already has a spare waiting',
    });
  });

  it('never exceeds the process bound', () => {
    expect(decideSpare(input({ alive: 6, maxProcesses: 6 }))).toEqual({
      start: false,
      reason: '6 processes alive, the most allowed',
    });
  });

  it('never starts a spare that no run would take', () => {
    expect(decideSpare(input({ runsToCome: 1, spares: 1, alive: 5 }))).toEqual({
      start: false,
      reason: 'no run left to use another spare',
    });
    expect(decideSpare(input({ runsToCome: 0 })).start).toBe(false);
  });

  it('starts none when free memory would not hold it twice over', () => {
    expect(decideSpare(input({ freeMemoryBytes: 2 * CLI_PROCESS_BYTES - 1 }))).toEqual({
      start: false,
      reason: 'too little free memory for another process',
    });
    expect(decideSpare(input({ freeMemoryBytes: 2 * CLI_PROCESS_BYTES })).start).toBe(true);
  });
});

describe('processBound', () => {
  it('is the concurrency plus at most half as many spares, as half the free memory holds', () => {
    expect(processBound({ concurrency: 4, freeMemoryBytes: 16 * GB })).toBe(6);
    expect(processBound({ concurrency: 5, freeMemoryBytes: 16 * GB })).toBe(8);
    expect(processBound({ concurrency: 4, freeMemoryBytes: 2 * CLI_PROCESS_BYTES })).toBe(5);
    expect(processBound({ concurrency: 4, freeMemoryBytes: CLI_PROCESS_BYTES })).toBe(4);
  });

  it('is what --max-processes asked for when given, above or below the concurrency', () => {
    expect(processBound({ concurrency: 4, freeMemoryBytes: 16 * GB, requested: 9 })).toBe(9);
    expect(processBound({ concurrency: 4, freeMemoryBytes: 16 * GB, requested: 2 })).toBe(2);
  });
});

describe('median', () => {
  it('of odd and even counts, and of none', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([])).toBeUndefined();
  });
});
