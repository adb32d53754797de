import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chatReply,
  chatRespond,
  chatToolCall,
  chatToolResults,
  embeddingsReply,
  type FakeOpenAIServer,
  openaiError,
  startFakeOpenAI,
} from '../../src/index.js';
import { chatBody, completionSchema, errorBodySchema } from '../support/openai-wire.js';
import { postJson } from '../support/post-messages.js';

// The fake OpenAI server's script: exhaustion, fallback, errors, dynamic steps, assertComplete().
let server: FakeOpenAIServer;

beforeEach(async () => {
  server ??= await startFakeOpenAI();
  server.reset();
});

afterAll(async () => {
  await server.close();
});

function postChat(body: Record<string, unknown> = {}) {
  return postJson(server.url, '/v1/chat/completions', chatBody(body));
}

async function completion(body: Record<string, unknown> = {}) {
  const response = await postChat(body);
  expect(response.status).toBe(200);
  return completionSchema.parse(await response.json());
}

describe('script', () => {
  it('answers 400 "script exhausted (chat completion request #N)" with x-should-retry: false', async () => {
    server.script(chatReply('only one'));
    await (await postChat()).text();
    const response = await postChat({ stream: true });

    expect(response.status).toBe(400);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(errorBodySchema.parse(await response.json()).error.message).toBe(
      'fake-openai: script exhausted (chat completion request #2): answered 400',
    );
    await (await postChat()).text();
    expect(server.requests).toHaveLength(1);
    expect(server.unexpected.map((request) => request.reason)).toEqual([
      'script exhausted (chat completion request #2): answered 400',
      'script exhausted (chat completion request #3): answered 400',
    ]);
  });

  it('answers with the fallback step for as many requests as come once the script is used up', async () => {
    const bench = await startFakeOpenAI({ steps: [chatReply('first')], fallback: chatReply('ok') });
    try {
      const texts: (string | null)[] = [];
      for (let turn = 0; turn < 4; turn += 1) {
        const response = await postJson(bench.url, '/v1/chat/completions', chatBody());
        texts.push(completionSchema.parse(await response.json()).choices[0].message.content);
      }
      expect(texts).toEqual(['first', 'ok', 'ok', 'ok']);
      expect(bench.requests.map((request) => request.reason)).toEqual([
        'script step 1: chatReply("first")',
        ...Array.from({ length: 3 }, () => 'fallback: chatReply("ok")'),
      ]);
      expect(() => bench.assertComplete()).not.toThrow();
    } finally {
      await bench.close();
    }
  });

  it('answers openaiError steps with the status, the OpenAI error body and retry headers', async () => {
    server.script(
      openaiError(
        429,
        {},
        { retryAfter: 3, retryAfterMs: 2500, headers: { 'x-ratelimit-remaining-requests': '0' } },
      ),
    );
    const response = await postChat({ stream: true });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(response.headers.get('retry-after-ms')).toBe('2500');
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(await response.json()).toEqual({
      error: {
        message: expect.stringContaining('Rate limit'),
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
    expect(() => server.assertComplete()).not.toThrow();
  });

  it('rejects openaiError statuses that are not HTTP errors', () => {
    expect(() => openaiError(302)).toThrow('openaiError() needs an HTTP error status (400-599), got 302');
  });
});

describe('dynamic steps', () => {
  it('computes the answer from the recorded request, e.g. from the tool results sent back', async () => {
    server.script(
      chatRespond((request) =>
        chatReply(
          chatToolResults(request)
            .map((result) => `${result.toolName}→${result.text}`)
            .join(', '),
        ),
      ),
    );
    const toolCall = {
      id: 'call_1',
      type: 'function',
      function: { name: 'add', arguments: '{"a":2,"b":3}' },
    };
    const answer = await completion({
      messages: [
        { role: 'user', content: 'add 2 and 3' },
        { role: 'assistant', content: null, tool_calls: [toolCall] },
        { role: 'tool', tool_call_id: 'call_1', content: '5' },
      ],
    });
    expect(answer.choices[0].message.content).toBe(`${toolCall.function.name}→5`);
  });

  it('may be async and may return an error step', async () => {
    server.script(
      chatRespond(async (request) =>
        openaiError(404, { message: `The model ${request.chatBody?.model} does not exist` }),
      ),
    );
    const response = await postChat({ model: 'gpt-nope' });
    expect(response.status).toBe(404);
    expect(errorBodySchema.parse(await response.json()).error).toMatchObject({
      message: 'The model gpt-nope does not exist',
      code: 'model_not_found',
    });
  });

  it('turns a throwing builder into a 400 answer and an unexpected request', async () => {
    server.script(
      chatRespond(() => {
        throw new Error('boom');
      }),
    );
    const response = await postChat();
    expect(response.status).toBe(400);
    expect(errorBodySchema.parse(await response.json()).error.message).toBe(
      'fake-openai: chatRespond() step failed: boom',
    );
    expect(server.requests).toHaveLength(1);
    expect(() => server.assertComplete()).toThrow('chatRespond() step failed: boom');
  });
});

describe('assertComplete()', () => {
  it('names the unused steps of both scripts and the request each was waiting for', async () => {
    server.script(chatReply('used'), chatToolCall('search', { q: 'x' }), chatReply('never sent back'));
    server.scriptEmbeddings(embeddingsReply([[0.6, 0.8]]));
    await (await postChat()).text();
    expect(() => server.assertComplete()).toThrow(
      [
        'fake-openai: the script did not run as planned.',
        '  2 unused step(s), the next one would have answered chat completion request #2:',
        '    1. chatToolCall(search)',
        '    2. chatReply("never sent back")',
        '  1 unused step(s), the next one would have answered embeddings request #1:',
        '    1. embeddingsReply(1 vector(s) of 2)',
        '  Chat completion requests answered: 1.',
        '  Embeddings requests answered: 0.',
      ].join('\n'),
    );
  });

  it('names each unexpected request with its reason', async () => {
    await (await postChat()).text();
    await (await fetch(`${server.url}/v1/models`)).text();
    expect(() => server.assertComplete()).toThrow(
      [
        'fake-openai: the script did not run as planned.',
        '  2 unexpected request(s):',
        '    POST /v1/chat/completions — script exhausted (chat completion request #1): answered 400',
        '    GET /v1/models — no route for GET /v1/models: answered 404',
        '  Chat completion requests answered: 0.',
      ].join('\n'),
    );
  });
});
