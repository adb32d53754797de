import { expect, it } from 'vitest';
import { waitUntil } from '../../src/wait/wait-until.js';

it('resolves with the first value the check returns', async () => {
  let calls = 0;
  const value = await waitUntil(() => (++calls >= 3 ? `after ${calls}` : undefined), {
    timeoutMs: 5_000,
    what: 'the third call',
    intervalMs: 1,
  });
  expect(value).toBe('after 3');
});

it('fails after its deadline naming what it waited for and the last error', async () => {
  await expect(
    waitUntil(
      () => {
        throw new Error('store is locked');
      },
      { timeoutMs: 30, what: 'the hold to be stored', intervalMs: 5 },
    ),
  ).rejects.toThrow(
    'timed out after 30 ms waiting for the hold to be stored (last check threw: store is locked)',
  );
});

it('treats false and null as not yet', async () => {
  await expect(waitUntil(() => false, { timeoutMs: 20, what: 'never', intervalMs: 5 })).rejects.toThrow(
    'timed out after 20 ms waiting for never',
  );
});
