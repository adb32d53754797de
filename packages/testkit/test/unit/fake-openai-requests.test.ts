import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { chatReply, type FakeOpenAIServer, startFakeOpenAI } from '../../src/index.js';
import { chatBody, completionSchema, errorBodySchema } from '../support/openai-wire.js';
import { postJson } from '../support/post-messages.js';

const API_KEY = 'sk-test-fake-openai-key';

let server: FakeOpenAIServer;

beforeEach(async () => {
  server ??= await startFakeOpenAI({ apiKey: API_KEY });
  server.reset();
});

afterAll(async () => {
  await server.close();
});

const bearer = { authorization: `Bearer ${API_KEY}` };

describe('routes', () => {
  it("serves Azure's deployment route, taking the model from the URL and requiring ?api-version", async () => {
    server.script(chatReply('from Azure'));
    const { model: _model, ...withoutModel } = chatBody();
    const path = '/openai/deployments/my-gpt-4o/chat/completions';
    const response = await postJson(server.url, `${path}?api-version=2024-10-21`, withoutModel, {
      'api-key': API_KEY,
    });
    const answer = completionSchema.parse(await response.json());
    expect(answer.model).toBe('my-gpt-4o');
    expect(server.requests[0]).toMatchObject({
      api: 'azure-deployment',
      deployment: 'my-gpt-4o',
      apiVersion: '2024-10-21',
      query: '?api-version=2024-10-21',
    });

    const noVersion = await postJson(server.url, path, withoutModel, { 'api-key': API_KEY });
    expect(noVersion.status).toBe(404);
    expect(server.unexpected.map((request) => request.reason)).toEqual([
      'Azure deployment URL without ?api-version=: answered 404',
    ]);
  });

  it("serves Azure's v1 route /openai/v1/chat/completions", async () => {
    server.script(chatReply('from Azure v1'));
    const response = await postJson(server.url, '/openai/v1/chat/completions', chatBody(), {
      'api-key': API_KEY,
    });
    expect(response.status).toBe(200);
    expect(server.requests[0]).toMatchObject({
      api: 'azure-v1',
      deployment: undefined,
      apiVersion: undefined,
    });
  });

  it.each([
    ['POST', '/v1/responses', 'the Responses API is not faked'],
    ['POST', '/openai/v1/responses', 'the Responses API is not faked'],
    ['POST', '/v1/completions', 'the legacy Completions API is not faked'],
    ['POST', '/openai/chat/completions', 'pass baseURL server.azureBaseUrl'],
    ['POST', '/chat/completions', 'use server.baseUrl'],
    ['POST', '/api/chat', "Ollama's native API is not faked"],
    ['GET', '/v1/chat/completions', 'takes POST, not GET'],
    ['GET', '/v1/models', undefined],
  ])(
    'answers %s %s with a 404 OpenAI error body and a hint, recorded as unexpected',
    async (method, path, hint) => {
      server.script(chatReply('not for a wrong path'));
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: bearer,
        body: method === 'POST' ? JSON.stringify(chatBody()) : undefined,
      });
      expect(response.status).toBe(404);
      const { error } = errorBodySchema.parse(await response.json());
      expect(error.type).toBe('invalid_request_error');
      expect(error.message).toContain(`fake-openai: no route for ${method} ${path}`);
      if (hint !== undefined) expect(error.message).toContain(hint);
      expect(server.unexpected).toMatchObject([{ kind: 'unexpected', path, api: undefined }]);
      expect(server.remainingSteps).toHaveLength(1);
    },
  );
});

describe('API key check (apiKey option)', () => {
  it("answers 401 with OpenAI's body when the Bearer token is missing or wrong, without using a step", async () => {
    server.script(chatReply('for the right key'));
    const missing = await postJson(server.url, '/v1/chat/completions', chatBody());
    const wrong = await postJson(server.url, '/v1/chat/completions', chatBody(), {
      authorization: 'Bearer sk-wrong-key-12345',
    });

    expect([missing.status, wrong.status]).toEqual([401, 401]);
    expect(errorBodySchema.parse(await missing.json()).error).toMatchObject({
      message: expect.stringContaining("You didn't provide an API key"),
      code: null,
    });
    const wrongError = errorBodySchema.parse(await wrong.json()).error;
    expect(wrongError).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });
    expect(wrongError.message).toContain('Incorrect API key provided');
    expect(wrongError.message).not.toContain('sk-wrong-key-12345');
    expect(server.unexpected.map((request) => request.reason)).toEqual([
      'unauthorized: no "Authorization: Bearer" header: answered 401',
      'unauthorized: the Bearer token is not the API key: answered 401',
    ]);
    expect(server.remainingSteps).toHaveLength(1);

    const right = await postJson(server.url, '/v1/chat/completions', chatBody(), bearer);
    expect(right.status).toBe(200);
  });

  it("checks Azure's api-key header on Azure routes (a Bearer token works too) and answers Azure's 401", async () => {
    server.script(chatReply('one'), chatReply('two'));
    const path = '/openai/deployments/dep/chat/completions?api-version=2024-10-21';
    const wrong = await postJson(server.url, path, chatBody(), { 'api-key': 'not-the-key' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      error: {
        code: '401',
        message: expect.stringContaining('Access denied due to invalid subscription key'),
      },
    });

    const withKey = await postJson(server.url, path, chatBody(), { 'api-key': API_KEY });
    const withBearer = await postJson(server.url, path, chatBody(), bearer);
    expect([withKey.status, withBearer.status]).toEqual([200, 200]);
    expect(server.unexpected.map((request) => request.reason)).toEqual([
      'unauthorized: the "api-key" header is not the API key: answered 401',
    ]);
  });
});

describe('request validation (answered 400, recorded as unexpected)', () => {
  const call = (id: string, name = 'add') => ({
    id,
    type: 'function',
    function: { name, arguments: '{}' },
  });
  const user = { role: 'user', content: 'Hi' };
  const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object' } } });

  it.each([
    [
      'a tool message whose tool_call_id matches no earlier tool call',
      chatBody({ messages: [user, { role: 'tool', tool_call_id: 'call_x', content: '1' }] }),
      'messages.1: tool_call_id "call_x" matches no earlier assistant tool call',
    ],
    [
      'a tool call that gets no tool message',
      chatBody({
        messages: [
          user,
          { role: 'assistant', content: null, tool_calls: [call('call_1'), call('call_2')] },
          { role: 'tool', tool_call_id: 'call_1', content: '1' },
          user,
        ],
      }),
      'messages.1: an assistant message with tool_calls must be followed by tool messages responding to each tool_call_id; no response for "call_2"',
    ],
    [
      'a tool result answered twice',
      chatBody({
        messages: [
          user,
          { role: 'assistant', content: null, tool_calls: [call('call_1')] },
          { role: 'tool', tool_call_id: 'call_1', content: '1' },
          { role: 'tool', tool_call_id: 'call_1', content: '1' },
        ],
      }),
      'messages.3: tool_call_id "call_1" does not answer the assistant message right before it',
    ],
    [
      'an assistant message with neither content nor tool calls',
      chatBody({ messages: [user, { role: 'assistant', content: null }, user] }),
      'messages.1: an assistant message needs content or tool_calls',
    ],
    [
      'a tool name OpenAI rejects',
      chatBody({ tools: [tool('mcp.server.add')] }),
      'tools.0.function.name: must match ^[a-zA-Z0-9_-]+$',
    ],
    [
      'tool_choice naming a tool not offered',
      chatBody({ tools: [tool('add')], tool_choice: { type: 'function', function: { name: 'mul' } } }),
      'tool_choice: names the function "mul", which is not among the tools offered',
    ],
    ['no model', { messages: [user] }, 'model: required'],
    ['no messages', chatBody({ messages: [] }), 'messages:'],
    ['an unknown role', chatBody({ messages: [{ role: 'function', content: 'x' }] }), 'messages.0.role:'],
    ['temperature above 2', chatBody({ temperature: 3 }), 'temperature:'],
    ['n > 1', chatBody({ n: 2 }), 'n: n > 1 is not supported by the fake server'],
  ])('rejects %s', async (_case, body, message) => {
    server.script(chatReply('unused'));
    const response = await postJson(server.url, '/v1/chat/completions', body, bearer);
    expect(response.status).toBe(400);
    const { error } = errorBodySchema.parse(await response.json());
    expect(error.message).toContain('fake-openai: invalid chat-completions body: ');
    expect(error.message).toContain(message);
    expect(server.unexpected).toHaveLength(1);
    expect(server.remainingSteps).toHaveLength(1);
  });

  it('rejects a body that is not JSON', async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: bearer,
      body: 'model=gpt-4o',
    });
    expect(response.status).toBe(400);
    expect(server.unexpected.map((request) => request.reason)).toEqual([
      'invalid chat-completions body: not JSON: answered 400',
    ]);
    expect(server.unexpected[0]?.rawBody).toBe('model=gpt-4o');
  });

  it('accepts a full tool history: parallel calls answered in any order, then more turns', async () => {
    server.script(chatReply('fine'));
    const body = chatBody({
      tools: [tool('add'), tool('mul')],
      tool_choice: { type: 'function', function: { name: 'add' } },
      messages: [
        { role: 'system', content: 'Be exact.' },
        user,
        { role: 'assistant', content: 'Calling both.', tool_calls: [call('call_1'), call('call_2', 'mul')] },
        { role: 'tool', tool_call_id: 'call_2', content: '6' },
        { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: '5' }] },
        { role: 'assistant', content: '5 and 6.' },
        user,
      ],
    });
    const response = await postJson(server.url, '/v1/chat/completions', body, bearer);
    expect(response.status).toBe(200);
    expect(server.unexpected).toEqual([]);
  });
});
