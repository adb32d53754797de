import { estimateTokens } from '../wire/estimate-tokens.js';
import { embeddingToBase64 } from './fake-embedding.js';

/** One entry of an embeddings answer. */
export interface EmbeddingItem {
  object: 'embedding';
  index: number;
  /** Numbers, or base64 float32 bytes when the request asked for `encoding_format: 'base64'`. */
  embedding: number[] | string;
}

/** The `/embeddings` answer. */
export interface EmbeddingsResponse {
  object: 'list';
  data: EmbeddingItem[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

/** Builds the `/embeddings` answer for the inputs and their vectors. */
export function buildEmbeddingsResponse(
  inputs: readonly string[],
  vectors: readonly number[][],
  options: { model: string; encoding: 'float' | 'base64' },
): EmbeddingsResponse {
  const promptTokens = inputs.reduce((sum, input) => sum + estimateTokens(input), 0);
  return {
    object: 'list',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: options.encoding === 'base64' ? embeddingToBase64(vector) : [...vector],
    })),
    model: options.model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}
