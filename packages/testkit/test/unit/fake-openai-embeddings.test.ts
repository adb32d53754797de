import { createAzure } from '@ai-sdk/azure';
import { createOpenAI } from '@ai-sdk/openai';
import { embedMany } from 'ai';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  embeddingsInputs,
  embeddingsReply,
  type FakeOpenAIServer,
  fakeEmbedding,
  openaiError,
  startFakeOpenAI,
} from '../../src/index.js';
import { embeddingsResponseSchema, errorBodySchema } from '../support/openai-wire.js';
import { postJson } from '../support/post-messages.js';

let server: FakeOpenAIServer;

beforeEach(async () => {
  server ??= await startFakeOpenAI();
  server.reset();
});

afterAll(async () => {
  await server.close();
});

async function embed(body: Record<string, unknown>, path = '/v1/embeddings') {
  const response = await postJson(server.url, path, { model: 'text-embedding-3-small', ...body });
  expect(response.status).toBe(200);
  return embeddingsResponseSchema.parse(await response.json());
}

function numbers(embedding: number[] | string): number[] {
  if (typeof embedding === 'string') throw new Error('expected a float embedding');
  return embedding;
}

function cosine(a: readonly number[], b: readonly number[]): number {
  return a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);
}

describe('hashed embeddings (no script)', () => {
  it('answers one deterministic unit vector per input, 1536 dimensions by default', async () => {
    const inputs = ['The refund policy lasts 30 days.', 'Shipping takes a week.'];
    const first = await embed({ input: inputs });
    const again = await embed({ input: inputs[0] });
    const vectors = first.data.map((item) => numbers(item.embedding));

    expect(first.data.map((item) => item.index)).toEqual([0, 1]);
    expect(vectors.map((vector) => vector.length)).toEqual([1536, 1536]);
    for (const vector of vectors) expect(Math.hypot(...vector)).toBeCloseTo(1, 10);
    expect(numbers(again.data[0]?.embedding ?? [])).toEqual(vectors[0]);
    expect(vectors[0]).not.toEqual(vectors[1]);
    expect(vectors[0]).toEqual(fakeEmbedding(inputs[0] ?? '', 1536));
    expect(first.usage.prompt_tokens).toBeGreaterThan(0);
    expect(server.embeddingsRequests.map(embeddingsInputs)).toEqual([inputs, [inputs[0]]]);
    expect(() => server.assertComplete()).not.toThrow();
  });

  it('ranks texts that share words above unrelated ones, so retrieval tests behave', () => {
    const query = fakeEmbedding('What is the refund policy?', 256);
    const related = fakeEmbedding('Our refund policy: refunds within 30 days.', 256);
    const unrelated = fakeEmbedding('Shipping takes a week to arrive.', 256);
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated));
  });

  it('honours the request dimensions, then the embeddingDimensions option', async () => {
    const answer = await embed({ input: 'x', dimensions: 64 });
    expect(numbers(answer.data[0]?.embedding ?? []).length).toBe(64);
    const small = await startFakeOpenAI({ embeddingDimensions: 8 });
    try {
      const response = await postJson(small.url, '/v1/embeddings', { model: 'm', input: 'x' });
      const parsed = embeddingsResponseSchema.parse(await response.json());
      expect(numbers(parsed.data[0]?.embedding ?? [])).toEqual(fakeEmbedding('x', 8));
    } finally {
      await small.close();
    }
  });

  it('answers encoding_format base64 with little-endian float32 bytes of the same vector', async () => {
    const floats = await embed({ input: 'base64 please', dimensions: 16 });
    const encoded = await embed({ input: 'base64 please', dimensions: 16, encoding_format: 'base64' });
    const text = encoded.data[0]?.embedding;
    if (typeof text !== 'string') throw new Error('expected a base64 string');
    const bytes = Buffer.from(text, 'base64');
    const decoded = Array.from({ length: bytes.length / 4 }, (_, index) => bytes.readFloatLE(index * 4));
    const expected = numbers(floats.data[0]?.embedding ?? []);
    expect(decoded).toHaveLength(expected.length);
    decoded.forEach((value, index) => {
      expect(value).toBeCloseTo(expected[index] ?? Number.NaN, 6);
    });
  });

  it('uses the embed option instead of hashing when given', async () => {
    const custom = await startFakeOpenAI({ embed: (input, dimensions) => [input.length, dimensions] });
    try {
      const response = await postJson(custom.url, '/v1/embeddings', { model: 'm', input: ['abc', 'de'] });
      const parsed = embeddingsResponseSchema.parse(await response.json());
      expect(parsed.data.map((item) => item.embedding)).toEqual([
        [3, 1536],
        [2, 1536],
      ]);
    } finally {
      await custom.close();
    }
  });

  it('serves the Azure deployment route and echoes the deployment as the model', async () => {
    const answer = await embed(
      { model: undefined, input: 'hello' },
      '/openai/deployments/embedder/embeddings?api-version=2024-10-21',
    );
    expect(answer.model).toBe('embedder');
    expect(server.embeddingsRequests[0]).toMatchObject({ api: 'azure-deployment', deployment: 'embedder' });
  });

  it('rejects token-array inputs with a 400, recorded as unexpected', async () => {
    const response = await postJson(server.url, '/v1/embeddings', { model: 'm', input: [[1, 2, 3]] });
    expect(response.status).toBe(400);
    expect(errorBodySchema.parse(await response.json()).error.message).toContain(
      'fake-openai: invalid embeddings body: input',
    );
    expect(server.unexpected).toHaveLength(1);
  });
});

describe('scripted embeddings', () => {
  it('answers scripted vectors and errors in order, then hashed vectors again', async () => {
    server.scriptEmbeddings(embeddingsReply([[0.6, 0.8]]), openaiError(429, {}, { retryAfter: 2 }));
    const scripted = await embed({ input: 'one' });
    const limited = await postJson(server.url, '/v1/embeddings', { model: 'm', input: 'two' });
    const hashed = await embed({ input: 'three', dimensions: 4 });

    expect(scripted.data.map((item) => item.embedding)).toEqual([[0.6, 0.8]]);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(errorBodySchema.parse(await limited.json()).error.code).toBe('rate_limit_exceeded');
    expect(numbers(hashed.data[0]?.embedding ?? [])).toEqual(fakeEmbedding('three', 4));
    expect(server.embeddingsRequests.map((request) => request.reason)).toEqual([
      'embeddings step: embeddingsReply(1 vector(s) of 2)',
      'embeddings step: openaiError(429, rate_limit_exceeded)',
      'hashed embeddings (4 dimensions)',
    ]);
    expect(() => server.assertComplete()).not.toThrow();
  });
});

describe('through the AI SDK', () => {
  it('embedMany with createOpenAI().embedding() gets the hashed vectors and the usage', async () => {
    const values = ['alpha beta', 'gamma delta', 'alpha gamma'];
    const openai = createOpenAI({ baseURL: server.baseUrl, apiKey: 'sk-test' });
    const result = await embedMany({ model: openai.embedding('text-embedding-3-small'), values });
    expect(result.embeddings).toEqual(values.map((value) => fakeEmbedding(value, 1536)));
    const request = server.embeddingsRequests[0];
    expect(request?.embeddingsBody).toMatchObject({ input: values, encoding_format: 'float' });
    expect(result.usage.tokens).toBeGreaterThan(0);
  });

  it('createAzure().embedding() with deployment URLs reaches the Azure embeddings route', async () => {
    const azure = createAzure({
      baseURL: server.azureDeploymentsBaseUrl,
      apiKey: 'azure-key',
      apiVersion: '2024-10-21',
      useDeploymentBasedUrls: true,
    });
    const result = await embedMany({ model: azure.embedding('embedder'), values: ['hello'] });
    expect(result.embeddings).toEqual([fakeEmbedding('hello', 1536)]);
    expect(server.embeddingsRequests[0]).toMatchObject({
      path: '/openai/deployments/embedder/embeddings',
      apiVersion: '2024-10-21',
      headers: { 'api-key': 'azure-key' },
    });
  });
});
