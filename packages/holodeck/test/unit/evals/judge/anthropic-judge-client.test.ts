import { apiError, type FakeAnthropicServer, reply, startFakeAnthropic, toolUse } from '@holodeck/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnthropicJudgeClientOptions } from '../../../../src/evals/judge/anthropic-judge-client.js';
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

const client = (options: Partial<AnthropicJudgeClientOptions> = {}) => fakeServerClient(server, options);

describe('Anthropic judge client', () => {
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

  it('throws a JudgeError naming ANTHROPIC_API_KEY when no credentials are set', () => {
    expect(() => client({ env: { ANTHROPIC_BASE_URL: server.url } })).toThrow(
      /the judge model needs credentials: set ANTHROPIC_API_KEY/,
    );
  });

  it('refuses a verdict that violates the schema', async () => {
    server.script(toolUse('submit_verdict', { reason: 'great', score: 9 }));
    const error = await judgeError(client().judge(judgeRequest));
    expect(error.code).toBe('invalid-verdict');
    expect(error.message).toContain(
      "the judge's verdict does not match the verdict schema: /score must be <= 5",
    );
  });

  it('refuses a plain text answer without a tool call', async () => {
    server.script(reply('I would give it a 4.'));
    const error = await judgeError(client().judge(judgeRequest));
    expect(error.code).toBe('no-verdict');
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

  it('times out a request that takes too long', async () => {
    server.script(toolUse('submit_verdict', { reason: 'late', score: 3 }, { delayMs: 2000 }));
    const error = await judgeError(client({ timeoutMs: 100, maxRetries: 0 }).judge(judgeRequest));
    expect(error.message).toContain('could not be reached: no answer within 100 ms');
  });

  it('stops at once when the signal aborts, with the signal reason', async () => {
    server.script(toolUse('submit_verdict', { reason: 'late', score: 3 }, { delayMs: 2000 }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('run cancelled')), 100);
    const started = Date.now();
    await expect(client().judge(judgeRequest, controller.signal)).rejects.toThrow('run cancelled');
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
