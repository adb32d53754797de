import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chatJson,
  chatReply,
  chatToolCall,
  chatToolCalls,
  embeddingsReply,
  type FakeOpenAIServer,
  startFakeOpenAI,
} from '../../src/index.js';
import {
  type Chunk,
  chatBody,
  completionSchema,
  contentDeltas,
  parseChunkStream,
} from '../support/openai-wire.js';
import { postJson } from '../support/post-messages.js';

let server: FakeOpenAIServer;

beforeEach(async () => {
  server ??= await startFakeOpenAI();
  server.reset();
});

afterAll(async () => {
  await server.close();
});

function postChat(body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return postJson(server.url, '/v1/chat/completions', chatBody(body), headers);
}

async function streamed(body: Record<string, unknown> = {}) {
  const response = await postChat({ stream: true, ...body });
  return { response, chunks: parseChunkStream(await response.text()) };
}

async function completion(body: Record<string, unknown> = {}) {
  const response = await postChat(body);
  expect(response.status).toBe(200);
  return completionSchema.parse(await response.json());
}

/** Tool call deltas grouped by their `index`. */
function toolCallDeltas(chunks: readonly Chunk[]) {
  const byIndex = new Map<number, NonNullable<Chunk['choices'][number]['delta']['tool_calls']>>();
  for (const chunk of chunks) {
    for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
      byIndex.set(call.index, [...(byIndex.get(call.index) ?? []), call]);
    }
  }
  return byIndex;
}

describe('streaming answers (stream: true)', () => {
  it('streams data-only chunks: the role first, the text in several deltas, finish_reason, then [DONE]', async () => {
    const text = 'The quick brown fox jumps over the lazy dog, twice.';
    server.script(chatReply(text));
    const { response, chunks } = await streamed({ model: 'gpt-4o-mini' });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(chunks[0]?.choices[0]?.delta).toMatchObject({ role: 'assistant', content: '' });
    const pieces = contentDeltas(chunks).filter((piece) => piece !== '');
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(text);
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason)).toEqual([
      ...chunks.slice(1).map(() => null),
      'stop',
    ]);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(new Set(chunks.map((chunk) => chunk.model))).toEqual(new Set(['gpt-4o-mini']));
    // Without stream_options.include_usage there is no usage at all.
    expect(chunks.every((chunk) => chunk.usage === undefined)).toBe(true);
  });

  it('streams each tool call as index + id + name first, then its arguments in pieces', async () => {
    const weather = { city: 'Paris', unit: 'celsius', days: 3 };
    const time = { zone: 'Europe/Paris' };
    server.script(
      chatToolCalls([
        { name: 'get_weather', arguments: weather },
        { name: 'get_time', arguments: time, id: 'call_custom' },
      ]),
    );
    const { chunks } = await streamed();
    const calls = toolCallDeltas(chunks);

    expect([...calls.keys()]).toEqual([0, 1]);
    for (const [index, expected] of [
      [0, { name: 'get_weather', args: weather }],
      [1, { name: 'get_time', args: time }],
    ] as const) {
      const [first, ...rest] = calls.get(index) ?? [];
      expect(first).toMatchObject({ type: 'function', function: { name: expected.name, arguments: '' } });
      expect(first?.id).toEqual(expect.any(String));
      expect(rest.every((delta) => delta.id === undefined && delta.function.name === undefined)).toBe(true);
      expect(JSON.parse(rest.map((delta) => delta.function.arguments).join(''))).toEqual(expected.args);
    }
    expect(calls.get(1)?.[0]?.id).toBe('call_custom');
    expect(calls.get(0)?.[0]?.id).not.toBe('call_custom');
    expect((calls.get(0)?.length ?? 0) - 1).toBeGreaterThan(1);
    expect(chunks[0]?.choices[0]?.delta.content).toBeNull();
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('ends with a usage chunk (choices: []) when stream_options.include_usage is set', async () => {
    const usage = { prompt_tokens: 12, completion_tokens: 3, cached_tokens: 2 };
    server.script(chatReply('Hi there.', { usage }));
    const { chunks } = await streamed({ stream_options: { include_usage: true } });

    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
      prompt_tokens_details: { cached_tokens: usage.cached_tokens },
    });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('streams reasoning_content before the content', async () => {
    const reasoning = 'The user greets me, so I greet back politely.';
    server.script(chatReply('Hello to you too.', { reasoning }));
    const { chunks } = await streamed();
    const kinds = chunks.flatMap((chunk) => {
      const delta = chunk.choices[0]?.delta;
      if (delta?.reasoning_content !== undefined) return ['reasoning'];
      return delta?.content ? ['content'] : [];
    });
    expect(kinds.indexOf('content')).toBeGreaterThan(kinds.lastIndexOf('reasoning'));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? '').join('')).toBe(reasoning);
  });

  it('spaces the frames chunkDelayMs apart', async () => {
    server.script(chatReply('a b c', { chunkDelayMs: 20 }));
    const started = Date.now();
    const { chunks } = await streamed();
    // One gap between consecutive frames; the frames are the chunks plus [DONE].
    expect(Date.now() - started).toBeGreaterThanOrEqual(20 * chunks.length - 5);
  });
  it('survives a client that goes away mid-stream', async () => {
    server.script(chatReply('one two three four five six', { chunkDelayMs: 30 }), chatReply('next'));
    const response = await postChat({ stream: true });
    const reader = response.body?.getReader();
    await reader?.read();
    await reader?.cancel();
    const next = await completion();
    expect(next.choices[0].message.content).toBe('next');
  });
});

describe('non-streaming answers', () => {
  it('answers a chat.completion with the message, its tool_calls and estimated usage', async () => {
    const args = { query: 'refund policy', limit: 2 };
    server.script(chatToolCall('search_docs', args, { text: 'Let me look that up.' }));
    const answer = await completion({ model: 'gpt-4.1' });
    const [choice] = answer.choices;

    expect(answer.model).toBe('gpt-4.1');
    expect(choice.message.content).toBe('Let me look that up.');
    expect(choice.message.tool_calls?.map((call) => call.function.name)).toEqual(['search_docs']);
    expect(JSON.parse(choice.message.tool_calls?.[0]?.function.arguments ?? '')).toEqual(args);
    expect(choice.finish_reason).toBe('tool_calls');
    // Documented estimate: a quarter of the request body length.
    expect(answer.usage.prompt_tokens).toBe(Math.ceil((server.requests[0]?.rawBody.length ?? 0) / 4));
    expect(answer.usage.total_tokens).toBe(answer.usage.prompt_tokens + answer.usage.completion_tokens);
  });

  it('takes finishReason, model and usage overrides from the step', async () => {
    server.script(
      chatReply('Cut short', {
        finishReason: 'length',
        model: 'gpt-4o-2024-08-06',
        usage: { completion_tokens: 4096, reasoning_tokens: 10 },
      }),
    );
    const answer = await completion();
    expect(answer.choices[0].finish_reason).toBe('length');
    expect(answer.model).toBe('gpt-4o-2024-08-06');
    expect(answer.usage.completion_tokens).toBe(4096);
    expect(answer.usage.completion_tokens_details.reasoning_tokens).toBe(10);
  });

  it('sends a chatJson value as JSON text content', async () => {
    const value = { city: 'Lyon', temperatures: [18.5, 21], sunny: true };
    server.script(chatJson(value));
    const answer = await completion({ response_format: { type: 'json_object' } });
    expect(JSON.parse(answer.choices[0].message.content ?? '')).toEqual(value);
    expect(answer.choices[0].finish_reason).toBe('stop');
  });

  it('sends string arguments verbatim, so tests can script malformed tool input', async () => {
    server.script(chatToolCall('broken', '{"unterminated'));
    const answer = await completion();
    expect(answer.choices[0].message.tool_calls?.[0]?.function.arguments).toBe('{"unterminated');
  });
});

describe('latency', () => {
  it('waits delayMs and the server-wide latencyMs before answering', async () => {
    const slow = await startFakeOpenAI({ latencyMs: 80, steps: [chatReply('late', { delayMs: 70 })] });
    try {
      const started = Date.now();
      const response = await postJson(slow.url, '/v1/chat/completions', chatBody());
      await response.text();
      expect(Date.now() - started).toBeGreaterThanOrEqual(145);
    } finally {
      await slow.close();
    }
  });
});

describe('recording', () => {
  it('records method, path, query, headers, the parsed body and why the request got its answer', async () => {
    server.script(chatReply('ok'));
    const before = Date.now();
    const body = chatBody({ temperature: 0.2 });
    await (
      await postJson(server.url, '/v1/chat/completions', body, {
        authorization: 'Bearer sk-test',
        'OpenAI-Organization': 'org-test',
      })
    ).text();
    const [request] = server.requests;
    expect(request).toMatchObject({
      sequence: 1,
      method: 'POST',
      path: '/v1/chat/completions',
      query: '',
      api: 'openai',
      kind: 'chat',
      reason: 'script step 1: chatReply("ok")',
      body,
      chatBody: { model: 'gpt-4o', temperature: 0.2 },
    });
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.headers['openai-organization']).toBe('org-test');
    expect(request?.receivedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(server.allRequests).toEqual(server.requests);
  });

  it('calls onRequest with every recorded request, unexpected ones included', async () => {
    const seen: string[] = [];
    const logged = await startFakeOpenAI({
      steps: [chatReply('ok')],
      onRequest: (request) => seen.push(`${request.kind} ${request.path}`),
    });
    try {
      await (await postJson(logged.url, '/v1/chat/completions', chatBody())).text();
      await (await fetch(`${logged.url}/v1/files`)).text();
      expect(seen).toEqual(['chat /v1/chat/completions', 'unexpected /v1/files']);
    } finally {
      await logged.close();
    }
  });

  it('rejects invalid options at start', async () => {
    await expect(startFakeOpenAI({ latencyMs: -1, embeddingDimensions: 0 })).rejects.toThrow(
      /^startFakeOpenAI\(\): invalid options: latencyMs: .*; embeddingDimensions: /,
    );
  });

  it('reset() clears the scripts and the recordings', async () => {
    server.script(chatReply('unused'));
    server.scriptEmbeddings(embeddingsReply([[1, 0]]));
    await (await fetch(`${server.url}/v1/nothing`)).text();
    server.reset();
    expect(server.remainingSteps).toEqual([]);
    expect(server.remainingEmbeddingsSteps).toEqual([]);
    expect(server.allRequests).toEqual([]);
    expect(() => server.assertComplete()).not.toThrow();
  });
});
