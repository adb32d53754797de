import { createAzure } from '@ai-sdk/azure';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, jsonSchema, Output, streamText } from 'ai';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chatJson,
  chatReply,
  chatResponseFormat,
  type FakeOpenAIServer,
  startFakeOpenAI,
} from '../../src/index.js';

// @ai-sdk/azure and @ai-sdk/openai-compatible against the fake: the URLs and headers they use.
const API_KEY = 'sk-test-providers';

let server: FakeOpenAIServer;

beforeEach(async () => {
  server ??= await startFakeOpenAI({ apiKey: API_KEY });
  server.reset();
});

afterAll(async () => {
  await server.close();
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

describe('createAzure().chat()', () => {
  it('with useDeploymentBasedUrls: the deployment URL, ?api-version and the api-key header', async () => {
    server.script(chatReply('Azure deployment reply'));
    const azure = createAzure({
      baseURL: server.azureDeploymentsBaseUrl,
      apiKey: API_KEY,
      apiVersion: '2024-10-21',
      useDeploymentBasedUrls: true,
    });
    const result = await generateText({ model: azure.chat('my-gpt-4o'), prompt: 'hi' });
    expect(result.text).toBe('Azure deployment reply');
    expect(server.requests[0]).toMatchObject({
      path: '/openai/deployments/my-gpt-4o/chat/completions',
      apiVersion: '2024-10-21',
      api: 'azure-deployment',
      headers: { 'api-key': API_KEY },
    });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('with baseURL server.azureBaseUrl: the v1 route (no api-version for a host that is not Azure)', async () => {
    server.script(chatReply('Azure v1 reply'));
    const azure = createAzure({ baseURL: server.azureBaseUrl, apiKey: API_KEY });
    const result = await generateText({ model: azure.chat('my-deployment'), prompt: 'hi' });
    expect(result.text).toBe('Azure v1 reply');
    expect(server.requests[0]).toMatchObject({ path: '/openai/v1/chat/completions', query: '' });
    expect(server.requests[0]?.chatBody?.model).toBe('my-deployment');
  });

  it('with resourceName (the default URL, sent here through a redirecting fetch): /openai/v1 and ?api-version=v1', async () => {
    server.script(chatReply('Azure resource reply'));
    const azure = createAzure({
      resourceName: 'my-resource',
      apiKey: API_KEY,
      fetch: (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        return fetch(url.replace('https://my-resource.openai.azure.com', server.url), init);
      },
    });
    await generateText({ model: azure.chat('my-deployment'), prompt: 'hi' });
    expect(server.requests[0]).toMatchObject({
      path: '/openai/v1/chat/completions',
      query: '?api-version=v1',
      api: 'azure-v1',
    });
  });

  it("a wrong key gets Azure's 401 message", async () => {
    const azure = createAzure({ baseURL: server.azureBaseUrl, apiKey: 'wrong' });
    const error = await apiCallError(generateText({ model: azure.chat('dep'), prompt: 'hi' }));
    expect(error.statusCode).toBe(401);
    expect(error.message).toContain('Access denied due to invalid subscription key');
  });
});

describe('createOpenAICompatible() (Ollama, vLLM, LiteLLM)', () => {
  const open = () => startFakeOpenAI();

  it('streams without stream_options by default, so the SDK reports no usage; includeUsage turns it on', async () => {
    const ollamaServer = await open();
    try {
      ollamaServer.script(
        chatReply('Plain stream.'),
        chatReply('With usage.', { usage: { prompt_tokens: 9 } }),
      );
      const plain = createOpenAICompatible({ name: 'ollama', baseURL: ollamaServer.baseUrl });
      const counted = createOpenAICompatible({
        name: 'ollama',
        baseURL: ollamaServer.baseUrl,
        includeUsage: true,
      });

      const first = streamText({ model: plain.chatModel('llama3.2'), prompt: 'hi' });
      expect(await first.text).toBe('Plain stream.');
      expect((await first.usage).inputTokens).toBeUndefined();
      const second = streamText({ model: counted.chatModel('llama3.2'), prompt: 'hi' });
      expect(await second.text).toBe('With usage.');
      expect((await second.usage).inputTokens).toBe(9);

      const [plainRequest, countedRequest] = ollamaServer.requests;
      expect(plainRequest?.chatBody?.stream_options).toBeUndefined();
      expect(countedRequest?.chatBody?.stream_options).toEqual({ include_usage: true });
      // Without apiKey, createOpenAICompatible sends no Authorization header.
      expect(plainRequest?.headers.authorization).toBeUndefined();
      ollamaServer.assertComplete();
    } finally {
      await ollamaServer.close();
    }
  });

  it('reads reasoning_content as the reasoning text', async () => {
    const ollamaServer = await open();
    try {
      const reasoning = 'The capital of France is Paris.';
      ollamaServer.script(chatReply('Paris.', { reasoning }));
      const ollama = createOpenAICompatible({ name: 'ollama', baseURL: ollamaServer.baseUrl });
      const result = await generateText({ model: ollama.chatModel('qwen3'), prompt: 'Capital of France?' });
      expect(result.text).toBe('Paris.');
      expect(result.reasoningText).toBe(reasoning);
    } finally {
      await ollamaServer.close();
    }
  });

  it('structured output without supportsStructuredOutputs asks for json_object and still parses the reply', async () => {
    const ollamaServer = await open();
    try {
      const answer = { answer: 'yes' };
      ollamaServer.script(chatJson(answer));
      const ollama = createOpenAICompatible({ name: 'ollama', baseURL: ollamaServer.baseUrl });
      const result = await generateText({
        model: ollama.chatModel('llama3.2'),
        prompt: 'Yes or no?',
        output: Output.object({
          schema: jsonSchema<typeof answer>({
            type: 'object',
            properties: { answer: { type: 'string' } },
            required: ['answer'],
          }),
        }),
      });
      expect(result.output).toEqual(answer);
      expect(result.warnings).toContainEqual(expect.objectContaining({ feature: 'responseFormat' }));
      const [request] = ollamaServer.requests;
      if (request === undefined) throw new Error('no request recorded');
      expect(chatResponseFormat(request)).toEqual({ type: 'json_object' });
    } finally {
      await ollamaServer.close();
    }
  });
});
