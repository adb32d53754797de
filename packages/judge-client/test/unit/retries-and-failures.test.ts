import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStructuredClient } from '../../src/create-structured-client.js';
import type { StructuredClientOptions } from '../../src/structured-client-options.js';
import {
  clientError,
  request,
  SECRET,
  textCompletion,
  toolCallCompletion,
  visibleText,
} from '../support/fixtures.js';
import { closedPort, type ScriptedServer, startScriptedServer } from '../support/scripted-server.js';

let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterEach(() => {
  server.assertComplete();
  server.reset();
});
afterAll(async () => {
  await server.close();
});

const verdict = { body: toolCallCompletion('submit_verdict', { reason: 'ok', score: 3 }) };
const serverError = (status: number, message = 'boom', headers: Record<string, string> = {}) => ({
  status,
  headers,
  body: { error: { type: 'api_error', message } },
});

const client = (options: Partial<StructuredClientOptions> = {}) =>
  createStructuredClient({
    provider: 'openai',
    model: 'gpt-judge',
    endpoint: server.url,
    env: { OPENAI_API_KEY: SECRET },
    retryDelayMs: 5,
    ...options,
  });

/** A fetch that fails the way undici does when it cannot connect. */
const refusingFetch = (detail: string): typeof fetch => {
  return async () => {
    throw new TypeError('fetch failed', { cause: new Error(detail) });
  };
};

describe('retries', () => {
  it('honours retry-after on a 429, then returns the answer', async () => {
    server.script(serverError(429, 'slow down', { 'retry-after': '0' }), verdict);
    // Without the header the backoff would be a minute: the test would time out.
    await expect(client({ retryDelayMs: 60_000 }).ask(request)).resolves.toEqual({ reason: 'ok', score: 3 });
    expect(server.requests).toHaveLength(2);
  });

  it('waits as long as retry-after-ms says', async () => {
    server.script(serverError(429, 'slow down', { 'retry-after-ms': '200', 'retry-after': '30' }), verdict);
    // Waiting the 30 s of retry-after (or the minute of backoff) would outlast the test's timeout.
    await client({ retryDelayMs: 60_000 }).ask(request);
    const [first, second] = server.requests;
    const waited = (second?.receivedAt ?? 0) - (first?.receivedAt ?? 0);
    expect(waited).toBeGreaterThanOrEqual(180);
  });

  it('caps what retry-after asks for at maxRetryDelayMs', async () => {
    server.script(serverError(503, 'later', { 'retry-after': '3600' }), verdict);
    await expect(client({ maxRetryDelayMs: 20 }).ask(request)).resolves.toEqual({ reason: 'ok', score: 3 });
  });

  it('retries a dropped connection', async () => {
    server.script({ destroy: true }, verdict);
    await expect(client().ask(request)).resolves.toEqual({ reason: 'ok', score: 3 });
    expect(server.requests).toHaveLength(2);
  });

  it('gives up on a 500 after its retries, saying how many attempts were made', async () => {
    server.script(serverError(500), serverError(500), serverError(500));
    const error = await clientError(client({ maxRetries: 2 }).ask(request));
    expect(error.code).toBe('http');
    expect(error.status).toBe(500);
    expect(error.attempts).toBe(3);
    expect(error.message).toBe('the judge request failed: HTTP 500 api_error: boom (after 3 attempts)');
    expect(server.requests).toHaveLength(3);
  });

  it('quotes a body that is not JSON', async () => {
    server.script({ status: 502, body: 'Bad gateway' }, { status: 502, body: 'Bad gateway' });
    const error = await clientError(client({ maxRetries: 1 }).ask(request));
    expect(error.message).toBe('the judge request failed: HTTP 502 Bad gateway (after 2 attempts)');
  });

  it('does not retry when the server sends x-should-retry: false', async () => {
    server.script(serverError(503, 'overloaded', { 'x-should-retry': 'false' }));
    const error = await clientError(client().ask(request));
    expect(error.message).toBe('the judge request failed: HTTP 503 api_error: overloaded');
  });

  it('retries a 409 when the server sends x-should-retry: true, and never a plain 400', async () => {
    server.script(
      serverError(409, 'conflict', { 'x-should-retry': 'true' }),
      verdict,
      serverError(400, 'bad request'),
    );
    await expect(client().ask(request)).resolves.toEqual({ reason: 'ok', score: 3 });
    const error = await clientError(client().ask(request));
    expect(error.message).toBe('the judge request failed: HTTP 400 api_error: bad request');
    expect(server.requests).toHaveLength(3);
  });

  it('uses the default policy: 2 retries', async () => {
    server.script(serverError(500), serverError(500), serverError(500));
    const error = await clientError(client().ask(request));
    expect(error.attempts).toBe(3);
  });
});

describe('network errors, timeouts and aborts', () => {
  it('reports an API that cannot be reached, after its retries', async () => {
    const error = await clientError(
      client({
        endpoint: 'http://127.0.0.1:9',
        fetch: refusingFetch('connect ECONNREFUSED 127.0.0.1:9'),
        maxRetries: 1,
      }).ask(request),
    );
    expect(error.code).toBe('network');
    expect(error.attempts).toBe(2);
    expect(error.message).toBe(
      'the judge API at http://127.0.0.1:9 could not be reached: fetch failed (connect ECONNREFUSED 127.0.0.1:9) (after 2 attempts)',
    );
  });

  it('reports a closed port as a network error', async () => {
    const port = await closedPort();
    const error = await clientError(
      client({ endpoint: `http://127.0.0.1:${port}`, maxRetries: 0 }).ask(request),
    );
    expect(error.code).toBe('network');
    expect(error.message).toMatch(
      new RegExp(
        `^the judge API at http://127\\.0\\.0\\.1:${port} could not be reached: fetch failed \\(.*ECONNREFUSED.*\\)$`,
      ),
    );
  });

  // Tests that leave a request in flight use a server of their own: a request it reads late
  // cannot take a later test's answer.
  it('times out each attempt, and says so after the retries', async () => {
    const own = await startScriptedServer();
    try {
      own.script({ ...verdict, delayMs: 2_000 }, { ...verdict, delayMs: 2_000 });
      const error = await clientError(
        client({ endpoint: own.url, timeoutMs: 100, maxRetries: 1 }).ask(request),
      );
      expect(error.code).toBe('timeout');
      // Both attempts were cut at 100 ms: waiting for the 2 s answers would have succeeded.
      expect(error.attempts).toBe(2);
      expect(error.message).toBe(
        `the judge API at ${own.url} did not answer within 100 ms (after 2 attempts)`,
      );
      // Each attempt was cut at its 100 ms bound rather than waiting for the 2 s answers.
      expect(own.requests).toHaveLength(2);
    } finally {
      await own.close();
    }
  });

  it('says a timeout of a second or more in seconds', async () => {
    const hangingFetch: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    const error = await clientError(
      client({ fetch: hangingFetch, timeoutMs: 1_000, maxRetries: 0 }).ask(request),
    );
    expect(error.message).toBe(`the judge API at ${server.url} did not answer within 1 s`);
  });

  it('stops at once when the caller aborts during a request', async () => {
    const own = await startScriptedServer();
    try {
      own.script({ ...verdict, delayMs: 2_000 });
      const controller = new AbortController();
      const reason = new Error('run cancelled');
      const pending = clientError(client({ endpoint: own.url }).ask(request, controller.signal));
      await vi.waitFor(() => expect(own.requests).toHaveLength(1));
      controller.abort(reason);
      const error = await pending;
      expect(error.code).toBe('aborted');
      expect(error.cause).toBe(reason);
      expect(error.message).toBe('the judge call was aborted: run cancelled');
    } finally {
      await own.close();
    }
  });

  it('stops at once when the caller aborts while waiting to retry', async () => {
    server.script(serverError(500));
    const controller = new AbortController();
    // Waiting out the 60 s retry delay would outlast the test's timeout.
    const pending = clientError(client({ retryDelayMs: 60_000 }).ask(request, controller.signal));
    // Abort once the first attempt was answered (a fixed delay could fire before it, under load).
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 10_000 });
    controller.abort('interrupted');
    const error = await pending;
    expect(error.message).toBe('the judge call was aborted: interrupted');
    expect(server.requests).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const error = await clientError(client().ask(request, AbortSignal.abort(new Error('too late'))));
    expect(error.code).toBe('aborted');
    expect(error.message).toBe('the judge call was aborted: too late');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a success whose body is not JSON', async () => {
    server.script({ status: 200, body: '<html>proxy login</html>' });
    const error = await clientError(client().ask(request));
    expect(error.code).toBe('http');
    expect(error.status).toBe(200);
    expect(error.message).toBe(
      'the judge API answered HTTP 200 with something that is not JSON: "<html>proxy login</html>"',
    );
  });
});

describe('the secret', () => {
  it.each([
    ['a 500 whose body echoes it', [serverError(500, `bad key ${SECRET}`)], 'http'],
    ['a 401 whose body echoes it', [serverError(401, `bad key ${SECRET}`)], 'authentication'],
    ['an answer whose text echoes it', [{ body: textCompletion(`your key is ${SECRET}`) }], 'invalid-answer'],
    [
      'an answer whose arguments echo it',
      [{ body: toolCallCompletion('submit_verdict', { reason: SECRET, score: 9 }) }],
      'invalid-answer',
    ],
    ['a success that is not JSON', [{ body: `oops ${SECRET}` }], 'http'],
  ] as const)('never appears in the error of %s', async (_name, steps, code) => {
    server.script(...steps);
    const error = await clientError(client({ maxRetries: 0 }).ask(request));
    expect(error.code).toBe(code);
    expect(error.message).toContain('[redacted]');
    expect(visibleText(error)).not.toContain(SECRET);
  });

  it('never appears in a network error that quotes it', async () => {
    const error = await clientError(
      client({ fetch: refusingFetch(`proxy refused ${SECRET}`), maxRetries: 0 }).ask(request),
    );
    expect(error.message).toBe(
      `the judge API at ${server.url} could not be reached: fetch failed (proxy refused [redacted])`,
    );
    expect(visibleText(error)).not.toContain(SECRET);
  });
});
