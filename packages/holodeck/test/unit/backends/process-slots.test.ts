import { describe, expect, it } from 'vitest';
import { ProcessSlots } from '../../../src/backends/claude/process-slots.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ProcessSlots', () => {
  it('hands out at most `limit` slots; tryAcquire refuses when full', () => {
    const slots = new ProcessSlots(2);
    const first = slots.tryAcquire();
    const second = slots.tryAcquire();
    expect(first && second).toBeTruthy();
    expect(slots.tryAcquire()).toBeUndefined();
    expect(slots.alive).toBe(2);
    first?.();
    first?.(); // a second release frees nothing more
    expect(slots.alive).toBe(1);
    expect(slots.tryAcquire()).toBeDefined();
    expect(slots.alive).toBe(2);
  });

  it('a waiting acquire asks for room, and gets the next freed slot before any newcomer', async () => {
    let shortages = 0;
    const slots = new ProcessSlots(1, () => shortages++);
    const held = await slots.acquire();
    let granted = false;
    const waiting = slots.acquire().then((release) => {
      granted = true;
      return release;
    });
    await settle();
    expect({ granted, shortages }).toEqual({ granted: false, shortages: 1 });
    held();
    // handed over, not freed: a newcomer finds no slot
    expect(slots.tryAcquire()).toBeUndefined();
    const release = await waiting;
    expect(granted).toBe(true);
    expect(slots.alive).toBe(1);
    release();
    expect(slots.alive).toBe(0);
  });

  it('rejects a bound that is not a whole number of at least 1', () => {
    expect(() => new ProcessSlots(0)).toThrow('limit must be an integer >= 1, got 0');
    expect(() => new ProcessSlots(1.5)).toThrow('limit must be an integer >= 1, got 1.5');
    expect(new ProcessSlots(Number.POSITIVE_INFINITY).tryAcquire()).toBeDefined();
  });
});
