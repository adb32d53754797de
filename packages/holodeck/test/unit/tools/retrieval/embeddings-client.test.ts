import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { embeddingsReply, openaiError, startFakeOpenAI } from '@holodeck/testkit';
import { describe, expect, it } from 'vitest';
import {
  EmbeddingDimensionError,
  EmbeddingsClient,
  EmbeddingsRequestError,
} from '../../../../src/tools/retrieval/embed/embeddings-client.js';
import type { EmbeddingSettings } from '../../../../src/tools/retrieval/embed/resolve-embedding-settings.js';

const KEY = 'sk-embeddings-secret-123';

function settings(url: string, extra: Partial<EmbeddingSettings> = {}): EmbeddingSettings {
  return {
    provider: 'openai',
    model: 'text-embedding-3-small',
    url,
    headers: { authorization: `Bearer ${KEY}` },
    providerField: 'embedding_provider',
    secrets: [KEY],
    ...extra,
  };
}

/** An embeddings endpoint that answers after `delayMs` and records how many requests overlapped. */
async function countingServer(delayMs: number) {
  let inFlight = 0;
  let most = 0;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      inFlight++;
      most = Math.max(most, inFlight);
      const { input } = JSON.parse(body) as { input: string[] };
      setTimeout(() => {
        inFlight--;
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ data: input.map((_, index) => ({ index, embedding: [1, 0, 0] })) }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/embeddings`, most: () => most, close: () => server.close() };
}

describe('EmbeddingsClient', () => {
  it("tells onUsage each answered request's input tokens (undefined when unsaid); a retried 500 is not told", async () => {
    const answers = [
      new Response('overloaded', { status: 500 }),
      Response.json({
        data: [{ index: 0, embedding: [1, 0] }],
        usage: { prompt_tokens: 7, total_tokens: 7 },
      }),
      Response.json({ data: [{ index: 0, embedding: [0, 1] }] }),
    ];
    const fetch = async () => answers.shift() ?? new Response('none left', { status: 400 });
    const client = new EmbeddingsClient(settings('http://127.0.0.1:9/v1/embeddings'), {
      batchSize: 1,
      concurrency: 1,
      baseDelayMs: 1,
      fetch,
    });
    const told: (number | undefined)[] = [];
    await client.embed(['a', 'b'], undefined, undefined, (tokens) => told.push(tokens));
    expect(told).toEqual([7, undefined]);
    expect(client.requests).toBe(3);
  });

  it('batches texts and keeps at most `concurrency` requests in flight, over all calls at once', async () => {
    const server = await countingServer(30);
    try {
      const client = new EmbeddingsClient(settings(server.url), { batchSize: 2, concurrency: 3 });
      const calls = await Promise.all(
        Array.from({ length: 4 }, (_, call) =>
          client.embed(['a', 'b', 'c', 'd', 'e'].map((text) => `${call}${text}`)),
        ),
      );
      expect(calls.map((vectors) => vectors.length)).toEqual([5, 5, 5, 5]);
      // 4 calls × 3 batches each, never more than 3 at once.
      expect(client.requests).toBe(12);
      expect(server.most()).toBe(3);
      expect(client.dimensions).toBe(3);
    } finally {
      server.close();
    }
  });

  it('retries a 429 and a 500, then succeeds', async () => {
    const fake = await startFakeOpenAI({
      embeddingDimensions: 8,
      embeddingsSteps: [openaiError(429), openaiError(500)],
    });
    try {
      const client = new EmbeddingsClient(settings(`${fake.baseUrl}/embeddings`), { baseDelayMs: 1 });
      const [vector] = await client.embed(['refunds']);
      expect(vector).toHaveLength(8);
      expect(client.requests).toBe(3);
    } finally {
      await fake.close();
    }
  });

  it('gives up after its retries, and names the key to check on a 401, never the key itself', async () => {
    const fake = await startFakeOpenAI({
      embeddingsSteps: [openaiError(503), openaiError(503), openaiError(401, { message: `bad key ${KEY}` })],
    });
    try {
      const client = new EmbeddingsClient(settings(`${fake.baseUrl}/embeddings`), {
        baseDelayMs: 1,
        maxRetries: 1,
      });
      const exhausted = await client.embed(['a']).catch((error: unknown) => error);
      expect(exhausted).toBeInstanceOf(EmbeddingsRequestError);
      expect((exhausted as Error).message).toMatch(
        new RegExp(
          `^the embeddings API at ${fake.baseUrl}/embeddings answered 503 after 2 attempts \\(the service of embedding_provider is failing or overloaded: retry later, or check embedding_provider\\.endpoint\\): `,
        ),
      );
      const refused = await client.embed(['a']).catch((error: unknown) => error);
      expect((refused as Error).message).toMatch(
        /answered 401 \(check the API key of embedding_provider\): /,
      );
      expect((refused as Error).message).toContain('bad key ***');
      expect((refused as Error).message).not.toContain(KEY);
    } finally {
      await fake.close();
    }
  });

  it('requires every vector to have the size embedding_dimensions asks for, or the first one had', async () => {
    const fake = await startFakeOpenAI({
      embeddingsSteps: [
        embeddingsReply([[1, 0, 0]]),
        embeddingsReply([[1, 0, 0]]),
        embeddingsReply([[1, 0]]),
      ],
    });
    try {
      const fixed = new EmbeddingsClient(settings(`${fake.baseUrl}/embeddings`, { dimensions: 4 }));
      await expect(fixed.embed(['a'])).rejects.toThrow(
        new EmbeddingDimensionError('text-embedding-3-small', 4, 3).message,
      );
      const learning = new EmbeddingsClient(settings(`${fake.baseUrl}/embeddings`));
      await learning.embed(['a']);
      await expect(learning.embed(['b'])).rejects.toBeInstanceOf(EmbeddingDimensionError);
      expect(fake.embeddingsRequests.at(0)?.embeddingsBody).toMatchObject({
        dimensions: 4,
        encoding_format: 'float',
      });
    } finally {
      await fake.close();
    }
  });
});
