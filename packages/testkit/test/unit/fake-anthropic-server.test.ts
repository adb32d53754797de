import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  apiError,
  type FakeAnthropicServer,
  reply,
  respond,
  startFakeAnthropic,
  thinking,
  toolResults,
  toolUse,
  toolUses,
} from '../../src/index.js';
import { deltaEvents, joinedJson, joinedText } from '../support/event-schemas.js';
import { parseSse } from '../support/parse-sse.js';
import { messagesBody, postJson } from '../support/post-messages.js';

let server: FakeAnthropicServer;

beforeEach(async () => {
  server ??= await startFakeAnthropic();
  server.reset();
});

afterAll(async () => {
  await server.close();
});

async function streamed(body: Record<string, unknown> = {}) {
  const response = await postJson(
    server.url,
    '/v1/messages?beta=true',
    messagesBody({ stream: true, ...body }),
  );
  return { response, events: parseSse(await response.text()) };
}

describe('streaming answers (stream: true)', () => {
  it('answers text/event-stream with the real event order and echoes the request model', async () => {
    server.script(reply('Hello there, this is a fake streamed reply.'));
    const { response, events } = await streamed({ model: 'claude-sonnet-4-5' });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('request-id')).toBe('req_fake_1');
    expect(events.map((event) => event.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0]?.data).toMatchObject({
      type: 'message_start',
      message: { model: 'claude-sonnet-4-5', role: 'assistant', content: [], stop_reason: null },
    });
    expect(joinedText(events.map((event) => event.data))).toBe('Hello there, this is a fake streamed reply.');
    expect(events.at(-2)?.data).toMatchObject({
      delta: { stop_reason: 'end_turn' },
      usage: { output_tokens: 11 },
    });
  });

  it('streams several tool_use blocks with generated ids and the JSON input in pieces', async () => {
    server.script(
      toolUses([
        { name: 'Read', input: { file_path: '/tmp/a' } },
        { name: 'Glob', input: { pattern: '*' } },
      ]),
    );
    const { events } = await streamed();
    const data = events.map((event) => event.data);
    expect(
      events.filter((event) => event.event === 'content_block_start').map((event) => event.data),
    ).toMatchObject([
      { index: 0, content_block: { type: 'tool_use', id: 'toolu_fake_1_0', name: 'Read', input: {} } },
      { index: 1, content_block: { type: 'tool_use', id: 'toolu_fake_1_1', name: 'Glob', input: {} } },
    ]);
    expect(JSON.parse(joinedJson(data, 0))).toEqual({ file_path: '/tmp/a' });
    expect(JSON.parse(joinedJson(data, 1))).toEqual({ pattern: '*' });
    expect(events.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('streams a thinking block before the text', async () => {
    server.script(thinking('First I consider the question.', 'The answer.'));
    const { events } = await streamed();
    const types = deltaEvents(events.map((event) => event.data)).map((event) => event.delta.type);
    expect(types).toEqual([
      'thinking_delta',
      'thinking_delta',
      'thinking_delta',
      'signature_delta',
      'text_delta',
      'text_delta',
    ]);
  });

  it('waits delayMs and the server-wide latencyMs before answering', async () => {
    const slow = await startFakeAnthropic({ latencyMs: 80, steps: [reply('late', { delayMs: 70 })] });
    try {
      const started = Date.now();
      const response = await postJson(slow.url, '/v1/messages', messagesBody());
      await response.text();
      expect(Date.now() - started).toBeGreaterThanOrEqual(145);
    } finally {
      await slow.close();
    }
  });
});

describe('chunk pacing', () => {
  it('spaces streamed events chunkDelayMs apart', async () => {
    server.script(reply('a b c', { chunkDelayMs: 20 }));
    const started = Date.now();
    const { events } = await streamed();
    // 9 events, 8 gaps of 20 ms.
    expect(events).toHaveLength(9);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });
});

describe('non-streaming answers', () => {
  it('answers the equivalent JSON message when stream is absent', async () => {
    server.script(toolUse('mcp__calc__add', { a: 1, b: 2 }, { text: 'Adding.', id: 'toolu_custom' }));
    const response = await postJson(server.url, '/v1/messages', messagesBody({ model: 'claude-x' }));
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      id: 'msg_fake_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [
        { type: 'text', text: 'Adding.' },
        { type: 'tool_use', id: 'toolu_custom', name: 'mcp__calc__add', input: { a: 1, b: 2 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        service_tier: 'standard',
      },
    });
  });

  it('reports scripted usage numbers', async () => {
    server.script(
      reply('x', { usage: { input_tokens: 5, output_tokens: 7, cache_creation_input_tokens: 3 } }),
    );
    const response = await postJson(server.url, '/v1/messages', messagesBody({ stream: false }));
    expect(await response.json()).toMatchObject({
      usage: {
        input_tokens: 5,
        output_tokens: 7,
        cache_creation_input_tokens: 3,
        cache_read_input_tokens: 0,
      },
    });
  });
});

describe('recording', () => {
  it('records method, path, query, headers, parsed body and time of agent-loop requests', async () => {
    server.script(reply('ok'));
    const before = Date.now();
    await (
      await postJson(server.url, '/v1/messages?beta=true', messagesBody(), { 'x-api-key': 'sk-test' })
    ).text();
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({
      sequence: 1,
      method: 'POST',
      path: '/v1/messages',
      query: '?beta=true',
      kind: 'agent-loop',
      reason: 'not from the Claude Code CLI',
      body: messagesBody(),
      messagesBody: { model: 'claude-test-model', max_tokens: 1024 },
    });
    expect(request?.headers['x-api-key']).toBe('sk-test');
    expect(request?.receivedAt.getTime()).toBeGreaterThanOrEqual(before);
  });

  it('answers count_tokens with an estimate and records it as auxiliary', async () => {
    const body = messagesBody({ messages: [{ role: 'user', content: 'x'.repeat(400) }] });
    const response = await postJson(server.url, '/v1/messages/count_tokens?beta=true', body);
    const json: unknown = await response.json();
    expect(json).toEqual({ input_tokens: Math.ceil(JSON.stringify(body).length / 4) });
    expect(server.requests).toHaveLength(0);
    expect(server.auxiliaryRequests).toMatchObject([
      { path: '/v1/messages/count_tokens', reason: 'count_tokens' },
    ]);
    expect(() => server.assertComplete()).not.toThrow();
  });

  it('answers the CLI connectivity check HEAD /api/hello and records it as auxiliary', async () => {
    const response = await fetch(`${server.url}/api/hello`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(server.auxiliaryRequests).toMatchObject([{ method: 'HEAD', reason: 'connectivity check' }]);
  });

  it('answers max_tokens 1 probes with the auxiliary reply without using a step', async () => {
    server.script(reply('for the agent loop'));
    const response = await postJson(server.url, '/v1/messages', messagesBody({ max_tokens: 1 }));
    expect(await response.json()).toMatchObject({ content: [{ type: 'text', text: 'ok' }] });
    expect(server.auxiliaryRequests).toMatchObject([{ reason: 'probe: max_tokens 1' }]);
    expect(server.remainingSteps).toHaveLength(1);
  });

  it('reset() clears steps and recordings', async () => {
    server.script(reply('unused'));
    await (await fetch(`${server.url}/v1/nothing`)).text();
    server.reset();
    expect(server.remainingSteps).toEqual([]);
    expect(server.allRequests).toEqual([]);
    expect(server.unexpected).toEqual([]);
    expect(() => server.assertComplete()).not.toThrow();
  });
});

describe('errors and unexpected requests', () => {
  it('answers apiError steps with the status, Anthropic error body and retry headers', async () => {
    server.script(
      apiError(429, { type: 'rate_limit_error', message: 'slow down' }, { retryAfter: 3, shouldRetry: true }),
    );
    const response = await postJson(server.url, '/v1/messages', messagesBody({ stream: true }));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(response.headers.get('x-should-retry')).toBe('true');
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down' },
      request_id: 'req_fake_1',
    });
    expect(server.requests).toHaveLength(1);
    expect(() => server.assertComplete()).not.toThrow();
  });

  it('rejects apiError statuses that are not HTTP errors', () => {
    expect(() => apiError(200, { type: 'x', message: 'y' })).toThrow(
      'apiError() needs an HTTP error status (400-599), got 200',
    );
  });

  it('answers 404 with an Anthropic error body for unknown paths and records them as unexpected', async () => {
    const response = await fetch(`${server.url}/v1/models`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      type: 'error',
      error: {
        type: 'not_found_error',
        message: 'fake-anthropic: no route for GET /v1/models: answered 404',
      },
      request_id: 'req_fake_1',
    });
    expect(server.unexpected).toMatchObject([{ kind: 'unexpected', path: '/v1/models' }]);
  });

  it('answers 400 invalid_request_error for a body that is not a Messages request', async () => {
    const response = await postJson(server.url, '/v1/messages', { model: 'm', messages: 'nope' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message: expect.stringContaining('invalid /v1/messages body: max_tokens:'),
      },
    });
    expect(server.unexpected).toHaveLength(1);
  });

  it('answers 500 "script exhausted (request #N)" with x-should-retry: false when no step is left', async () => {
    server.script(reply('only one'));
    await (await postJson(server.url, '/v1/messages', messagesBody())).text();
    const response = await postJson(server.url, '/v1/messages', messagesBody({ stream: true }));
    expect(response.status).toBe(500);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(await response.json()).toMatchObject({
      type: 'error',
      error: { type: 'api_error', message: 'fake-anthropic: script exhausted (request #2)' },
    });
    expect(server.requests).toHaveLength(1);
    expect(server.unexpected).toMatchObject([{ reason: 'script exhausted (request #2)' }]);

    await (await postJson(server.url, '/v1/messages', messagesBody())).text();
    expect(server.unexpected.map((request) => request.reason)).toEqual([
      'script exhausted (request #2)',
      'script exhausted (request #3)',
    ]);
  });

  it('repeats the last step forever with repeatLast', async () => {
    const repeating = await startFakeAnthropic({ repeatLast: true, steps: [reply('first'), reply('again')] });
    try {
      const texts: unknown[] = [];
      for (let turn = 0; turn < 4; turn += 1) {
        const response = await postJson(repeating.url, '/v1/messages', messagesBody());
        texts.push(await response.json());
      }
      expect(texts.map((json) => JSON.stringify(json).includes('"again"'))).toEqual([
        false,
        true,
        true,
        true,
      ]);
      expect(() => repeating.assertComplete()).not.toThrow();
    } finally {
      await repeating.close();
    }
  });
});

describe('assertComplete()', () => {
  it('names the unused steps and the request they were waiting for', async () => {
    server.script(reply('used'), toolUse('Read', { file_path: '/x' }), reply('never sent back'));
    await (await postJson(server.url, '/v1/messages', messagesBody())).text();
    expect(() => server.assertComplete()).toThrow(
      [
        'fake-anthropic: the script did not run as planned.',
        '  2 unused step(s), the next one would have answered agent-loop request #2:',
        '    1. toolUse(Read)',
        '    2. reply("never sent back")',
        '  Agent-loop requests answered: 1.',
      ].join('\n'),
    );
  });

  it('names each unexpected request with its reason', async () => {
    await (await postJson(server.url, '/v1/messages?beta=true', messagesBody())).text();
    await (await fetch(`${server.url}/v1/models`)).text();
    expect(() => server.assertComplete()).toThrow(
      [
        'fake-anthropic: the script did not run as planned.',
        '  2 unexpected request(s):',
        '    POST /v1/messages?beta=true — script exhausted (request #1)',
        '    GET /v1/models — no route for GET /v1/models: answered 404',
        '  Agent-loop requests answered: 0.',
      ].join('\n'),
    );
  });
});

describe('dynamic steps', () => {
  it('computes the answer from the recorded request, e.g. echoing the tool_result sent back', async () => {
    server.script(
      respond((request) =>
        reply(
          `You said: ${toolResults(request)
            .map((result) => result.text)
            .join(', ')}`,
        ),
      ),
    );
    const body = messagesBody({
      messages: [
        { role: 'user', content: 'add' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'add', input: {} }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'sum=5' }] }],
        },
      ],
    });
    const response = await postJson(server.url, '/v1/messages', body);
    expect(await response.json()).toMatchObject({ content: [{ type: 'text', text: 'You said: sum=5' }] });
  });

  it('may be async and may return an error step', async () => {
    server.script(
      respond(async (request) =>
        apiError(400, { type: 'invalid_request_error', message: `bad model ${request.messagesBody?.model}` }),
      ),
    );
    const response = await postJson(server.url, '/v1/messages', messagesBody());
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: 'bad model claude-test-model' } });
  });

  it('turns a throwing builder into a 500 answer and an unexpected request', async () => {
    server.script(
      respond(() => {
        throw new Error('boom');
      }, 'respond(echo)'),
    );
    const response = await postJson(server.url, '/v1/messages', messagesBody());
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      error: { message: 'fake-anthropic: respond() step failed: boom' },
    });
    expect(server.requests).toHaveLength(1);
    expect(() => server.assertComplete()).toThrow('respond() step failed: boom');
  });
});
