import { decodeTokens, encodeTokens } from './tokenizer.js';

/**
 * The text of `tokens[start, end)`, shortened from its end until it counts at most `size` tokens
 * again: decoding and encoding again can merge tokens differently across the cut, so a window of
 * `size` tokens may read back as `size + 1`. `size` is a hard bound.
 */
function boundedPiece(tokens: readonly number[], start: number, size: number): string {
  let end = Math.min(tokens.length, start + size);
  let piece = decodeTokens(tokens.slice(start, end)).trim();
  while (end > start + 1 && encodeTokens(piece).length > size) {
    end--;
    piece = decodeTokens(tokens.slice(start, end)).trim();
  }
  return piece;
}

/**
 * Cuts `text` into windows of at most `size` tokens (a hard bound, counted on each piece's own
 * text), each starting `size - overlap` tokens after the previous one, so consecutive pieces share
 * `overlap` tokens. Empty text gives no pieces.
 */
export function splitByTokens(text: string, size: number, overlap: number): string[] {
  if (size < 1 || overlap < 0 || overlap >= size) {
    throw new RangeError(`splitByTokens(): need 0 <= overlap < size, got size ${size}, overlap ${overlap}`);
  }
  const tokens = encodeTokens(text);
  const pieces: string[] = [];
  const step = size - overlap;
  for (let start = 0; start < tokens.length; start += step) {
    const piece = boundedPiece(tokens, start, size);
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
