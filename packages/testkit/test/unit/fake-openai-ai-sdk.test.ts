import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, generateText, jsonSchema, Output, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chatJson,
  chatLastUserText,
  chatMaxTokens,
  chatMessages,
  chatReply,
  chatRespond,
  chatResponseFormat,
  chatSystemText,
  chatTemperature,
  chatToolCall,
  chatToolCalls,
  chatToolNames,
  chatToolResults,
  type FakeOpenAIServer,
  openaiError,
  startFakeOpenAI,
} from '../../src/index.js';

// The real AI SDK 6 providers against the fake: what they send, and what they make of the answers.
const API_KEY = 'sk-test-ai-sdk';

let server: FakeOpenAIServer;

beforeEach(async () => {
  server ??= await startFakeOpenAI({ apiKey: API_KEY });
  server.reset();
});

afterAll(async () => {
  await server.close();
});

function openaiChat(model = 'gpt-4o') {
  return createOpenAI({ baseURL: server.baseUrl, apiKey: API_KEY, organization: 'org-fake' }).chat(model);
}

const addTool = tool({
  description: 'Adds two numbers',
  inputSchema: jsonSchema<{ a: number; b: number }>({
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  }),
  execute: async ({ a, b }) => String(a + b),
});

const weatherOf = (city: string) => `${city.length} degrees in ${city}`;

const weatherTool = tool({
  description: 'Weather in a city',
  inputSchema: jsonSchema<{ city: string }>({
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  }),
  execute: async ({ city }) => weatherOf(city),
});

/** The error a promise rejects with, as an APICallError. */
async function apiCallError(promise: Promise<unknown>): Promise<APICallError> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!APICallError.isInstance(error)) throw new Error(`expected an APICallError, got ${String(error)}`);
  return error;
}

describe('createOpenAI().chat()', () => {
  it('generateText: the reply, and what the SDK sent (system, prompt, temperature, max_tokens, headers)', async () => {
    const text = 'Hello from the fake model.';
    server.script(chatReply(text));
    const result = await generateText({
      model: openaiChat(),
      system: 'You are terse.',
      prompt: 'Say hello',
      temperature: 0.3,
      maxOutputTokens: 100,
    });

    expect(result.text).toBe(text);
    expect(result.finishReason).toBe('stop');
    const [request] = server.requests;
    if (request === undefined) throw new Error('no request recorded');
    expect(chatSystemText(request)).toBe('You are terse.');
    expect(chatLastUserText(request)).toBe('Say hello');
    expect(chatTemperature(request)).toBe(0.3);
    expect(chatMaxTokens(request)).toEqual({ field: 'max_tokens', value: 100 });
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.headers['openai-organization']).toBe('org-fake');
    expect(request.chatBody?.stream).toBeUndefined();
    server.assertComplete();
  });

  it('generateText for a reasoning model: a developer message and max_completion_tokens', async () => {
    server.script(chatReply('ok'));
    await generateText({
      model: openaiChat('o3-mini'),
      system: 'Think.',
      prompt: 'Go',
      maxOutputTokens: 500,
    });
    const [request] = server.requests;
    if (request === undefined) throw new Error('no request recorded');
    expect(chatMessages(request).map((message) => message.role)).toEqual(['developer', 'user']);
    expect(chatSystemText(request)).toBe('Think.');
    expect(chatMaxTokens(request)).toEqual({ field: 'max_completion_tokens', value: 500 });
  });

  it('reports usage as scripted, and the estimate when nothing is scripted', async () => {
    const usage = { prompt_tokens: 42, completion_tokens: 7, cached_tokens: 10, reasoning_tokens: 2 };
    server.script(chatReply('scripted usage', { usage }), chatReply('estimated usage'));
    const scripted = await generateText({ model: openaiChat(), prompt: 'one' });
    const estimated = await generateText({ model: openaiChat(), prompt: 'two' });

    expect(scripted.usage).toMatchObject({
      inputTokens: usage.prompt_tokens,
      outputTokens: usage.completion_tokens,
      totalTokens: usage.prompt_tokens + usage.completion_tokens,
      inputTokenDetails: {
        cacheReadTokens: usage.cached_tokens,
        noCacheTokens: usage.prompt_tokens - usage.cached_tokens,
      },
      outputTokenDetails: { reasoningTokens: usage.reasoning_tokens },
    });
    expect(estimated.usage.inputTokens).toBe(Math.ceil((server.requests[1]?.rawBody.length ?? 0) / 4));
    expect(estimated.usage.outputTokens).toBeGreaterThan(0);
  });

  it('streamText: the text arrives in several deltas, with the usage chunk the SDK asks for', async () => {
    const text = 'Streaming works one piece after another.';
    const usage = { prompt_tokens: 20, completion_tokens: 8 };
    server.script(chatReply(text, { usage }));
    const result = streamText({ model: openaiChat(), prompt: 'Stream please' });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);

    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(text);
    expect(await result.usage).toMatchObject({
      inputTokens: usage.prompt_tokens,
      outputTokens: usage.completion_tokens,
      totalTokens: usage.prompt_tokens + usage.completion_tokens,
    });
    expect(server.requests[0]?.chatBody).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('runs a two-step tool loop: tool call, tool result sent back by tool_call_id, final text', async () => {
    const [a, b] = [2, 3];
    server.script(
      chatToolCall('add', { a, b }),
      chatRespond((request) => chatReply(`The sum is ${chatToolResults(request)[0]?.text}.`)),
    );
    const result = await generateText({
      model: openaiChat(),
      prompt: `Add ${a} and ${b}`,
      tools: { add: addTool },
      stopWhen: stepCountIs(5),
    });

    expect(result.steps).toHaveLength(2);
    expect(result.text).toBe(`The sum is ${a + b}.`);
    const [first, second] = server.requests;
    if (first === undefined || second === undefined) throw new Error('expected two requests');
    expect(chatToolNames(first)).toEqual(['add']);
    const call = result.steps[0]?.toolCalls[0];
    expect(chatToolResults(second)).toEqual([
      { toolCallId: call?.toolCallId, toolName: 'add', text: String(a + b) },
    ]);
    server.assertComplete();
  });

  it('runs two tool calls of one message and pairs both results by tool_call_id', async () => {
    const cities = ['Paris', 'Oslo'];
    server.script(
      chatToolCalls(cities.map((city) => ({ name: 'weather', arguments: { city } }))),
      chatRespond((request) =>
        chatReply(
          chatToolResults(request)
            .map((result) => result.text)
            .join('; '),
        ),
      ),
    );
    const result = await generateText({
      model: openaiChat(),
      prompt: 'Weather in Paris and Oslo?',
      tools: { weather: weatherTool },
      stopWhen: stepCountIs(5),
    });

    const calls = result.steps[0]?.toolCalls ?? [];
    expect(calls.map((call) => call.input)).toEqual(cities.map((city) => ({ city })));
    expect(new Set(calls.map((call) => call.toolCallId)).size).toBe(2);
    const second = server.requests[1];
    if (second === undefined) throw new Error('expected a second request');
    const expected = calls.map((call, index) => ({
      toolCallId: call.toolCallId,
      toolName: 'weather',
      text: weatherOf(cities[index] ?? ''),
    }));
    expect(chatToolResults(second)).toEqual(expected);
    expect(result.text).toBe(expected.map((entry) => entry.text).join('; '));
  });

  it('streamText runs the tool loop from streamed tool call deltas', async () => {
    const [a, b] = [40, 2];
    server.script(
      chatToolCall('add', { a, b }),
      chatRespond((request) => chatReply(`Result: ${chatToolResults(request)[0]?.text}`)),
    );
    const result = streamText({
      model: openaiChat(),
      prompt: 'Add',
      tools: { add: addTool },
      stopWhen: stepCountIs(5),
    });
    expect(await result.text).toBe(`Result: ${a + b}`);
    expect((await result.steps)[0]?.toolCalls.map((call) => call.input)).toEqual([{ a, b }]);
  });

  it('structured output: response_format json_schema goes out, the JSON reply comes back parsed', async () => {
    const forecast = { city: 'Lyon', celsius: 21, sunny: true };
    server.script(chatJson(forecast));
    const result = await generateText({
      model: openaiChat(),
      prompt: 'Forecast for Lyon',
      output: Output.object({
        schema: jsonSchema<typeof forecast>({
          type: 'object',
          properties: { city: { type: 'string' }, celsius: { type: 'number' }, sunny: { type: 'boolean' } },
          required: ['city', 'celsius', 'sunny'],
          additionalProperties: false,
        }),
      }),
    });

    expect(result.output).toEqual(forecast);
    const [request] = server.requests;
    if (request === undefined) throw new Error('no request recorded');
    const format = chatResponseFormat(request);
    expect(format?.type).toBe('json_schema');
    if (format?.type !== 'json_schema') throw new Error('expected json_schema');
    expect(Object.keys(format.json_schema.schema?.properties ?? {})).toEqual(Object.keys(forecast));
  });
});

describe('API errors through the SDK', () => {
  it("a wrong key gets 401 with OpenAI's message; the SDK does not retry it", async () => {
    server.script(chatReply('never'));
    const wrongKey = createOpenAI({ baseURL: server.baseUrl, apiKey: 'sk-wrong-0000' }).chat('gpt-4o');
    const error = await apiCallError(generateText({ model: wrongKey, prompt: 'hi' }));

    expect(error.statusCode).toBe(401);
    expect(error.message).toContain('Incorrect API key provided');
    expect(error.isRetryable).toBe(false);
    expect(server.unexpected).toHaveLength(1);
    expect(server.remainingSteps).toHaveLength(1);
  });

  it.each([403, 404, 500, 503])(
    'a scripted %i reaches the caller with its status and message',
    async (status) => {
      const step = openaiError(status);
      server.script(step);
      const error = await apiCallError(generateText({ model: openaiChat(), prompt: 'hi', maxRetries: 0 }));
      expect(error.statusCode).toBe(status);
      expect(error.message).toBe(step.error.message);
      expect(error.isRetryable).toBe(status >= 500);
      server.assertComplete();
    },
  );

  it('a 429 with retry-after is retried after that delay, not the default 2 s backoff', async () => {
    server.script(openaiError(429, {}, { retryAfter: 3 }), chatReply('after the retry'));
    const started = Date.now();
    const result = await generateText({ model: openaiChat(), prompt: 'hi' });
    expect(result.text).toBe('after the retry');
    expect(server.requests).toHaveLength(2);
    // A lower bound, which load cannot break: the default backoff would have retried after 2 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
  });

  it('a request to the Responses API (createOpenAI()(model)) is unexpected and named by assertComplete', async () => {
    const responsesModel = createOpenAI({ baseURL: server.baseUrl, apiKey: API_KEY })('gpt-4o');
    const error = await apiCallError(generateText({ model: responsesModel, prompt: 'hi', maxRetries: 0 }));
    expect(error.statusCode).toBe(404);
    expect(() => server.assertComplete()).toThrow(
      /POST \/v1\/responses — no route for POST \/v1\/responses \(the Responses API is not faked/,
    );
  });

  it('a step left unused is caught by assertComplete', async () => {
    server.script(chatReply('first'), chatReply('second, never asked for'));
    await generateText({ model: openaiChat(), prompt: 'hi' });
    expect(() => server.assertComplete()).toThrow(
      '1 unused step(s), the next one would have answered chat completion request #2:\n    1. chatReply("second, never asked for")',
    );
  });
});
