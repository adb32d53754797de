import { apiError, type FakeAnthropicServer, reply, startFakeAnthropic, toolUse } from '@holodeck/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JudgeClientOptions } from '../../../../src/evals/judge/create-judge-client.js';
import { JudgeError } from '../../../../src/evals/judge/judge-error.js';
import {
  API_KEY,
  closedPort,
  fakeServerClient,
  judgeError,
  judgeRequest,
  verdictSchema,
} from './judge-client-fixtures.js';

let server: FakeAnthropicServer;

beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
});

const client = (options: Partial<JudgeClientOptions> = {}) => fakeServerClient(server, options);

describe('judge client (provider anthropic)', () => {
  it('returns the submit_verdict input and sends a forced tool call at temperature 0', async () => {
    server.script(toolUse('submit_verdict', { reason: 'fine', score: 4 }));
    await expect(client({ maxTokens: 1000 }).judge(judgeRequest)).resolves.toEqual({
      reason: 'fine',
      score: 4,
    });
    server.assertComplete();
    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe(API_KEY);
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.body).toEqual({
      model: 'claude-judge-test',
      max_tokens: 1000,
      temperature: 0,
      system: 'You grade.',
      messages: [{ role: 'user', content: judgeRequest.prompt }],
      tools: [{ name: 'submit_verdict', description: expect.any(String), input_schema: verdictSchema }],
      tool_choice: { type: 'tool', name: 'submit_verdict' },
    });
  });

  it('authenticates with CLAUDE_CODE_OAUTH_TOKEN as a bearer token when no API key is set', async () => {
    server.script(toolUse('submit_verdict', { reason: 'fine', score: 4 }));
    const oauth = client({
      env: { CLAUDE_CODE_OAUTH_TOKEN: 'oauth-token', ANTHROPIC_BASE_URL: `${server.url}/` },
    });
    await oauth.judge(judgeRequest);
    const headers = server.requests[0]?.headers;
    expect(headers?.authorization).toBe('Bearer oauth-token');
    expect(headers?.['anthropic-beta']).toBe('oauth-2025-04-20');
    expect(headers?.['x-api-key']).toBeUndefined();
  });

  it('throws a JudgeError naming ANTHROPIC_API_KEY when no credentials are set, before any request', () => {
    let error: unknown;
    try {
      client({ env: { ANTHROPIC_BASE_URL: server.url } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(JudgeError);
    expect(error).toMatchObject({ code: 'credentials', variable: 'ANTHROPIC_API_KEY' });
    expect(error instanceof Error ? error.message : '').toBe(
      'the judge model (anthropic) needs credentials: set ANTHROPIC_API_KEY or evaluations.model.api_key ' +
        '(or ANTHROPIC_AUTH_TOKEN for a bearer token, CLAUDE_CODE_OAUTH_TOKEN for a Claude subscription)',
    );
    expect(server.allRequests).toHaveLength(0);
  });

  it('refuses a verdict that violates the schema', async () => {
    server.script(toolUse('submit_verdict', { reason: 'great', score: 9 }));
    const error = await judgeError(client().judge(judgeRequest));
    expect(error.code).toBe('invalid-answer');
    expect(error.message).toBe(
      'the judge\'s submit_verdict input does not match its schema: /score must be <= 5. It sent: {"reason":"great","score":9}',
    );
  });

  it('refuses a plain text answer without a tool call', async () => {
    server.script(reply('I would give it a 4.'));
    const error = await judgeError(client().judge(judgeRequest));
    expect(error.code).toBe('invalid-answer');
    expect(error.message).toBe('the judge did not call submit_verdict. It said: "I would give it a 4.".');
  });

  it('retries a 500 and then returns the verdict', async () => {
    server.script(
      apiError(500, { type: 'api_error', message: 'boom' }),
      toolUse('submit_verdict', { reason: 'ok', score: 3 }),
    );
    await expect(client().judge(judgeRequest)).resolves.toEqual({ reason: 'ok', score: 3 });
    expect(server.requests).toHaveLength(2);
    server.assertComplete();
  });

  it('honours retry-after on a 429, and gives up after 2 retries', async () => {
    const overloaded = () =>
      apiError(529, { type: 'overloaded_error', message: 'Overloaded' }, { retryAfter: 0 });
    server.script(apiError(429, { type: 'rate_limit_error', message: 'slow down' }, { retryAfter: 0 }));
    server.script(overloaded(), overloaded());
    const error = await judgeError(client({ retryDelayMs: 60_000 }).judge(judgeRequest));
    expect(error.message).toBe(
      'the judge request failed: HTTP 529 overloaded_error: Overloaded (after 3 attempts)',
    );
    expect(error.status).toBe(529);
    expect(server.requests).toHaveLength(3);
  });

  it('names the variable on a 401, never the key, and does not retry', async () => {
    server.script(apiError(401, { type: 'authentication_error', message: `invalid x-api-key ${API_KEY}` }));
    const error = await judgeError(client().judge(judgeRequest));
    expect(error.code).toBe('authentication');
    expect(error.variable).toBe('ANTHROPIC_API_KEY');
    expect(error.message).toBe(
      'the judge API rejected the credentials (HTTP 401 authentication_error: invalid x-api-key [redacted]): check ANTHROPIC_API_KEY',
    );
    expect(JSON.stringify(error)).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('reports an unreachable API after its retries', async () => {
    const port = await closedPort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const unreachable = client({ env: { ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: baseUrl } });
    const error = await judgeError(unreachable.judge(judgeRequest));
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/could not be reached: .*\(after 3 attempts\)$/);
    expect(error.message).toContain(`the judge API at ${baseUrl} could not be reached`);
  });

  // These two leave a request in flight on the server: each gets a server of its own, so a request
  // the server reads late cannot take a later test's step.
  it('times out a request that takes too long', async () => {
    const own = await startFakeAnthropic({
      steps: [toolUse('submit_verdict', { reason: 'late', score: 3 }, { delayMs: 2000 })],
    });
    try {
      const env = { ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: own.url };
      const error = await judgeError(client({ env, timeoutMs: 100, maxRetries: 0 }).judge(judgeRequest));
      expect(error.code).toBe('timeout');
      expect(error.message).toBe(`the judge API at ${own.url} did not answer within 100 ms`);
    } finally {
      await own.close();
    }
  });

  it('stops at once when the signal aborts, with the signal reason', async () => {
    const own = await startFakeAnthropic({
      steps: [toolUse('submit_verdict', { reason: 'late', score: 3 }, { delayMs: 2000 })],
    });
    try {
      const env = { ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: own.url };
      const controller = new AbortController();
      const pending = client({ env }).judge(judgeRequest, controller.signal);
      await vi.waitFor(() => expect(own.requests).toHaveLength(1));
      controller.abort(new Error('run cancelled'));
      await expect(pending).rejects.toThrow('run cancelled');
    } finally {
      await own.close();
    }
  });
});
