import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from '../../../src/backends/claude/concurrency-limit.js';

/** A task that runs until the test finishes it, recording when it started. */
function controllable(log: string[], name: string) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const task = () => {
    log.push(`start ${name}`);
    return new Promise<string>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return { task, finish: (value = name) => finish(value), fail: (error: Error) => fail(error) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimit', () => {
  it('runs at most `limit` tasks at once and starts the others in arrival order', async () => {
    const limit = new ConcurrencyLimit(2);
    const log: string[] = [];
    const tasks = ['a', 'b', 'c', 'd'].map((name) => controllable(log, name));
    const results = tasks.map((entry) => limit.run(entry.task));
    await settle();
    expect(log).toEqual(['start a', 'start b']);

    tasks[1]?.finish();
    await settle();
    expect(log).toEqual(['start a', 'start b', 'start c']);

    tasks[0]?.finish();
    tasks[2]?.finish();
    await settle();
    expect(log).toEqual(['start a', 'start b', 'start c', 'start d']);
    tasks[3]?.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('frees the slot of a task that fails, and passes the failure to its caller', async () => {
    const limit = new ConcurrencyLimit(1);
    const log: string[] = [];
    const first = controllable(log, 'first');
    const second = controllable(log, 'second');
    const failed = limit.run(first.task);
    const next = limit.run(second.task);
    first.fail(new Error('spawn failed'));
    await expect(failed).rejects.toThrow('spawn failed');
    await settle();
    expect(log).toEqual(['start first', 'start second']);
    second.finish();
    await expect(next).resolves.toBe('second');
  });

  it('never lets a newcomer take a slot that is being handed to a waiter', async () => {
    const limit = new ConcurrencyLimit(1);
    let running = 0;
    let most = 0;
    const task = async () => {
      running++;
      most = Math.max(most, running);
      await settle();
      running--;
    };
    let finishFirst!: () => void;
    const firstDone = new Promise<void>((resolve) => {
      finishFirst = resolve;
    });
    const first = limit.run(() => firstDone);
    const waiter = limit.run(task);
    // Runs in the microtask right after the limit's own reaction to `firstDone`: after the slot
    // was released, before the waiter has resumed.
    let newcomer: Promise<void> | undefined;
    void firstDone.then(() => {
      newcomer = limit.run(task);
    });
    finishFirst();
    await first;
    await Promise.all([waiter, newcomer]);
    expect(most).toBe(1);
  });

  it('rejects a limit that is not a positive integer', () => {
    expect(() => new ConcurrencyLimit(0)).toThrow('limit must be an integer >= 1, got 0');
    expect(() => new ConcurrencyLimit(1.5)).toThrow('limit must be an integer >= 1, got 1.5');
  });

  it('acquire() holds a turn until its release, which frees it once however often it is called', async () => {
    const limit = new ConcurrencyLimit(1);
    const first = await limit.acquire();
    let second: (() => void) | undefined;
    void limit.acquire().then((release) => {
      second = release;
    });
    await settle();
    expect(second).toBeUndefined();
    first();
    first();
    await settle();
    expect(second).toBeDefined();
    // the double release did not free a second turn
    const log: string[] = [];
    void limit.run(async () => {
      log.push('ran');
    });
    await settle();
    expect(log).toEqual([]);
    second?.();
    await settle();
    expect(log).toEqual(['ran']);
  });
});
