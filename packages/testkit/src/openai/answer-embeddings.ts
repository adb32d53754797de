import type { ServerResponse } from 'node:http';
import { sleep } from '../wire/sleep.js';
import { writeJson } from '../wire/write-json.js';
import { writeErrorStep } from './answer-chat-step.js';
import { buildEmbeddingsResponse } from './build-embeddings-response.js';
import type { EmbeddingsStep } from './openai-script-step.js';

/** Everything an embeddings answer depends on besides its step. */
export interface EmbeddingsAnswerContext {
  inputs: string[];
  dimensions: number;
  model: string;
  encoding: 'float' | 'base64';
  /** Makes the vector of one input when no step gives the vectors. */
  embed: (input: string, dimensions: number) => number[];
  /** Sent as the `x-request-id` header. */
  requestId: string;
  /** Aborted when the server closes. */
  signal: AbortSignal;
}

/** Answers one embeddings request: the scripted step if there is one, else a vector per input from `embed`. */
export async function answerEmbeddings(
  response: ServerResponse,
  step: EmbeddingsStep | undefined,
  context: EmbeddingsAnswerContext,
): Promise<void> {
  await sleep(step?.delayMs ?? 0, context.signal);
  if (response.destroyed || context.signal.aborted) return;
  if (step?.type === 'api-error') {
    writeErrorStep(response, step, context.requestId);
    return;
  }
  const vectors = step?.vectors ?? context.inputs.map((input) => context.embed(input, context.dimensions));
  const answer = buildEmbeddingsResponse(context.inputs, vectors, {
    model: context.model,
    encoding: context.encoding,
  });
  writeJson(response, 200, answer, { 'x-request-id': context.requestId });
}
