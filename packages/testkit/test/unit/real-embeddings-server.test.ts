import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REAL_EMBEDDINGS_DIMENSIONS,
  type RealEmbeddingsServer,
  startRealEmbeddings,
} from '../../src/embeddings/real-embeddings-server.js';

let server: RealEmbeddingsServer;
beforeAll(async () => {
  server = await startRealEmbeddings();
}, 60_000);
afterAll(() => server?.close());

/** An embeddings answer or an error body, as the tests read them. */
interface Answer {
  object?: string;
  model?: string;
  data: { index: number; embedding: number[] }[];
  error?: { message: string };
}

async function embed(body: unknown): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${server.baseUrl}/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Answer };
}

const cosine = (a: number[], b: number[]) =>
  a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);

describe('startRealEmbeddings', () => {
  it('answers like OpenAI with unit vectors of 512 dimensions, one per input, in order', async () => {
    const { status, json } = await embed({
      model: 'use-lite',
      input: ['the cat sat on the mat', 'stock prices fell'],
    });
    expect(status).toBe(200);
    expect(json.object).toBe('list');
    expect(json.model).toBe('use-lite');
    expect(json.data.map((item) => item.index)).toEqual([0, 1]);
    for (const item of json.data) {
      expect(item.embedding).toHaveLength(REAL_EMBEDDINGS_DIMENSIONS);
      expect(Math.hypot(...item.embedding)).toBeCloseTo(1, 3);
    }
  });

  it('puts a paraphrase nearer than an unrelated sentence that shares no words either', async () => {
    const { json } = await embed({
      model: 'm',
      input: ['How do I reset my password?', 'I forgot my login credentials', 'The weather is sunny today'],
    });
    const [question = [], paraphrase = [], unrelated = []] = json.data.map((item) => item.embedding);
    expect(cosine(question, paraphrase)).toBeGreaterThan(cosine(question, unrelated) + 0.1);
  });

  it('gives the same text the same vector, whatever batch it comes in', async () => {
    const alone = await embed({ model: 'm', input: 'zlib compression levels' });
    const batched = await embed({ model: 'm', input: ['something else', 'zlib compression levels'] });
    expect(batched.json.data[1]?.embedding).toEqual(alone.json.data[0]?.embedding);
  });

  it('refuses a body without a model, other dimensions, and unknown routes, saying why', async () => {
    expect(await embed({ input: 'x' })).toMatchObject({
      status: 400,
      json: { error: { message: 'model: required' } },
    });
    expect(await embed({ model: 'm', input: 'x', dimensions: 256 })).toMatchObject({
      status: 400,
      json: { error: { message: 'dimensions: this model makes 512-dimension vectors, not 256' } },
    });
    const response = await fetch(`${server.baseUrl}/chat/completions`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(((await response.json()) as Answer).error?.message).toBe(
      'no route POST /v1/chat/completions: use POST /v1/embeddings',
    );
  });
});
