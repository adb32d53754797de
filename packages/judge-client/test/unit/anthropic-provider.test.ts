import {
  apiError,
  type FakeAnthropicServer,
  message,
  reply,
  startFakeAnthropic,
  toolUse,
} from '@holodeck/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStructuredClient } from '../../src/create-structured-client.js';
import type { StructuredClientOptions } from '../../src/structured-client-options.js';
import { clientError, request, SECRET, schema, thrownError, visibleText } from '../support/fixtures.js';

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

const client = (options: Partial<StructuredClientOptions> = {}) =>
  createStructuredClient({
    provider: 'anthropic',
    model: 'claude-judge-test',
    env: { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: server.url },
    retryDelayMs: 5,
    ...options,
  });

describe('provider anthropic (Messages API)', () => {
  it('sends a forced tool call at temperature 0 and returns the validated tool input', async () => {
    server.script(toolUse('submit_verdict', { reason: 'fine', score: 4 }));
    await expect(client({ maxTokens: 1000 }).ask(request)).resolves.toEqual({ reason: 'fine', score: 4 });
    server.assertComplete();
    const [sent] = server.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe(SECRET);
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.body).toEqual({
      model: 'claude-judge-test',
      max_tokens: 1000,
      temperature: 0,
      system: 'You grade.',
      messages: [{ role: 'user', content: request.prompt }],
      tools: [{ name: 'submit_verdict', description: 'Submit your verdict.', input_schema: schema }],
      tool_choice: { type: 'tool', name: 'submit_verdict' },
    });
  });

  it('defaults max_tokens to 4096 and the tool description to a generic one', async () => {
    server.script(toolUse('submit_verdict', { reason: 'fine', score: 4 }));
    const { toolDescription: _description, ...bare } = request;
    await client().ask(bare);
    expect(server.requests[0]?.body).toMatchObject({
      max_tokens: 4096,
      tools: [{ description: 'Submit your answer. This is the only way to answer.' }],
    });
  });

  it('takes the tool call among other blocks', async () => {
    server.script(
      message([
        { type: 'text', text: 'Here is my verdict.' },
        { type: 'tool_use', name: 'other_tool', input: { x: 1 } },
        { type: 'tool_use', name: 'submit_verdict', input: { reason: 'ok', score: 2 } },
      ]),
    );
    await expect(client().ask(request)).resolves.toEqual({ reason: 'ok', score: 2 });
  });

  it('prefers the apiKey option, and the endpoint option over ANTHROPIC_BASE_URL', async () => {
    server.script(toolUse('submit_verdict', { reason: 'fine', score: 4 }));
    const direct = client({
      apiKey: 'sk-option-key',
      endpoint: `${server.url}/`,
      env: { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' },
    });
    await direct.ask(request);
    expect(server.requests[0]?.headers['x-api-key']).toBe('sk-option-key');
  });

  it('authenticates with ANTHROPIC_AUTH_TOKEN as a bearer token when no API key is set', async () => {
    server.script(toolUse('submit_verdict', { reason: 'fine', score: 4 }));
    await client({ env: { ANTHROPIC_AUTH_TOKEN: 'auth-token', ANTHROPIC_BASE_URL: server.url } }).ask(
      request,
    );
    const headers = server.requests[0]?.headers;
    expect(headers?.authorization).toBe('Bearer auth-token');
    expect(headers?.['anthropic-beta']).toBeUndefined();
    expect(headers?.['x-api-key']).toBeUndefined();
  });

  it('authenticates with CLAUDE_CODE_OAUTH_TOKEN as a bearer token with the OAuth beta flag', async () => {
    server.script(toolUse('submit_verdict', { reason: 'fine', score: 4 }));
    await client({ env: { CLAUDE_CODE_OAUTH_TOKEN: 'oauth-token', ANTHROPIC_BASE_URL: server.url } }).ask(
      request,
    );
    const headers = server.requests[0]?.headers;
    expect(headers?.authorization).toBe('Bearer oauth-token');
    expect(headers?.['anthropic-beta']).toBe('oauth-2025-04-20');
    expect(headers?.['x-api-key']).toBeUndefined();
  });

  it('refuses to start without credentials, naming ANTHROPIC_API_KEY, before any request', () => {
    const error = thrownError(() =>
      client({ env: { ANTHROPIC_API_KEY: '  ', ANTHROPIC_BASE_URL: server.url }, apiKeyLabel: 'api_key' }),
    );
    expect(error.code).toBe('credentials');
    expect(error.variable).toBe('ANTHROPIC_API_KEY');
    expect(error.message).toBe(
      'the judge model (anthropic) needs credentials: set ANTHROPIC_API_KEY or api_key ' +
        '(or ANTHROPIC_AUTH_TOKEN for a bearer token, CLAUDE_CODE_OAUTH_TOKEN for a Claude subscription)',
    );
    expect(server.allRequests).toHaveLength(0);
  });

  it('refuses an ANTHROPIC_BASE_URL that is not an http(s) URL', () => {
    const error = thrownError(() =>
      client({ env: { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: 'localhost:8080' } }),
    );
    expect(error.code).toBe('configuration');
    expect(error.message).toBe('ANTHROPIC_BASE_URL is not an http(s) URL: "localhost:8080"');
  });

  it('refuses a plain text answer without the tool call, quoting it', async () => {
    server.script(reply('I would give it a 4.'));
    const error = await clientError(client().ask(request));
    expect(error.code).toBe('invalid-answer');
    expect(error.message).toBe('the judge did not call submit_verdict. It said: "I would give it a 4.".');
  });

  it('says when an answer without the tool call was cut off at max_tokens', async () => {
    server.script(message([{ type: 'text', text: 'Let me think' }], { stopReason: 'max_tokens' }));
    const error = await clientError(client({ maxTokens: 10 }).ask(request));
    expect(error.message).toBe(
      'the judge did not call submit_verdict. It said: "Let me think". ' +
        "The answer was cut off at max_tokens (10); raise the judge's max_tokens.",
    );
  });

  it('refuses an answer that does not match the schema, saying where', async () => {
    server.script(toolUse('submit_verdict', { reason: 'great', score: 9 }));
    const error = await clientError(client().ask(request));
    expect(error.code).toBe('invalid-answer');
    expect(error.message).toBe(
      'the judge\'s submit_verdict input does not match its schema: /score must be <= 5. It sent: {"reason":"great","score":9}',
    );
  });

  it('refuses an answer that is not a Messages API message', async () => {
    const fetchJson = async () => new Response(JSON.stringify({ completion: 'hi' }), { status: 200 });
    const error = await clientError(client({ fetch: fetchJson }).ask(request));
    expect(error.code).toBe('invalid-answer');
    expect(error.message).toBe('the judge API answer is not a Messages API message (no content list)');
  });

  it('names the variable on a 401 and never shows the key, without retrying', async () => {
    server.script(apiError(401, { type: 'authentication_error', message: `invalid x-api-key ${SECRET}` }));
    const error = await clientError(client().ask(request));
    expect(error.code).toBe('authentication');
    expect(error.status).toBe(401);
    expect(error.variable).toBe('ANTHROPIC_API_KEY');
    expect(error.message).toBe(
      'the judge API rejected the credentials (HTTP 401 authentication_error: invalid x-api-key [redacted]): check ANTHROPIC_API_KEY',
    );
    expect(visibleText(error)).not.toContain(SECRET);
    expect(server.requests).toHaveLength(1);
  });

  it('names the option label on a 403 when the key came from the apiKey option', async () => {
    server.script(apiError(403, { type: 'permission_error', message: 'not allowed' }));
    const error = await clientError(
      client({ apiKey: SECRET, apiKeyLabel: 'evaluations.model.api_key' }).ask(request),
    );
    expect(error.variable).toBe('evaluations.model.api_key');
    expect(error.message).toBe(
      'the judge API rejected the credentials (HTTP 403 permission_error: not allowed): check evaluations.model.api_key',
    );
  });

  it('hints at the model name on a 404', async () => {
    server.script(apiError(404, { type: 'not_found_error', message: 'model: claude-judge-test' }));
    const error = await clientError(client().ask(request));
    expect(error.message).toBe(
      'the judge request failed: HTTP 404 not_found_error: model: claude-judge-test (check the model name "claude-judge-test")',
    );
  });
});
