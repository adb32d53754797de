import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

/** The tokenizer every chunk size is counted in: OpenAI's cl100k_base, bundled with js-tiktoken (no download). */
export const TOKENIZER_NAME = 'cl100k_base';

let encoder: Tiktoken | undefined;

/** The cl100k_base encoder, built once on first use (~100 ms). */
function tokenizer(): Tiktoken {
  encoder ??= new Tiktoken(cl100kBase);
  return encoder;
}

/**
 * Token ids of `text`. Special tokens written in a document (`<|endoftext|>` in tiktoken's own
 * README) are text: encoded as the characters they are, never refused or read as control tokens.
 */
export function encodeTokens(text: string): number[] {
  return tokenizer().encode(text, [], []);
}

/** Text of token ids (a cut through a multi-byte character drops that character). */
export function decodeTokens(tokens: readonly number[]): string {
  return tokenizer()
    .decode([...tokens])
    .replace(/\uFFFD/g, '');
}

/** How many tokens `text` has. */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : encodeTokens(text).length;
}
