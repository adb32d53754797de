import { describe, expect, it } from 'vitest';
import { createTimedFetch } from '../../../../src/backends/ai-sdk/create-timed-fetch.js';

/** A fetch that never answers until its signal aborts, like a hung server. */
const hangingFetch: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
  });

describe('createTimedFetch', () => {
  it('gives up on a request after its deadline with a retryable network error', async () => {
    const timed = createTimedFetch(20, hangingFetch);
    const attempt = timed('http://127.0.0.1:9/v1/chat/completions?api-version=1', {});
    await expect(attempt).rejects.toMatchObject({
      code: 'ETIMEDOUT',
      message: 'no answer from http://127.0.0.1:9/v1/chat/completions within 0.02 s',
    });
  });

  it("lets the caller's abort through as an abort, not a timeout", async () => {
    const timed = createTimedFetch(10_000, hangingFetch);
    const controller = new AbortController();
    const attempt = timed('http://127.0.0.1:9/', { signal: controller.signal });
    controller.abort(new Error('stopped'));
    await expect(attempt).rejects.toThrow('stopped');
  });

  it('passes answers through with their status, headers and body', async () => {
    const timed = createTimedFetch(
      10_000,
      async () => new Response('hello', { status: 201, headers: { 'x-a': 'b' } }),
    );
    const response = await timed('http://127.0.0.1:9/', {});
    expect(response.status).toBe(201);
    expect(response.headers.get('x-a')).toBe('b');
    expect(await response.text()).toBe('hello');
  });
});
