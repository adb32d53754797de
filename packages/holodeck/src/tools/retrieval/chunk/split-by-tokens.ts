import { decodeTokens, encodeTokens } from './tokenizer.js';

/**
 * Cuts `text` into windows of at most `size` tokens, each starting `size - overlap` tokens after
 * the previous one, so consecutive pieces share `overlap` tokens. Empty text gives no pieces.
 */
export function splitByTokens(text: string, size: number, overlap: number): string[] {
  if (size < 1 || overlap < 0 || overlap >= size) {
    throw new RangeError(`splitByTokens(): need 0 <= overlap < size, got size ${size}, overlap ${overlap}`);
  }
  const tokens = encodeTokens(text);
  const pieces: string[] = [];
  const step = size - overlap;
  for (let start = 0; start < tokens.length; start += step) {
    const piece = decodeTokens(tokens.slice(start, start + size)).trim();
    if (piece) pieces.push(piece);
    if (start + size >= tokens.length) break;
  }
  return pieces;
}

/** The last `count` tokens of `text`, as text (the overlap carried into the next chunk). */
export function lastTokens(text: string, count: number): string {
  if (count <= 0) return '';
  const tokens = encodeTokens(text);
  return decodeTokens(tokens.slice(Math.max(0, tokens.length - count))).trim();
}
