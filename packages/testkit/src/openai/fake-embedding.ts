import { createHash } from 'node:crypto';

/** Words (letters and digits), lower-cased: the features `fakeEmbedding()` hashes. */
function features(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  // Text without words (empty, punctuation only) still gets a vector of its own.
  return words ?? [`\u0000${text}`];
}

/**
 * A deterministic unit vector for `text` (feature hashing): each word adds ±1 to the dimension
 * its SHA-256 picks. The same text always gets the same vector, and texts that share words
 * have a higher cosine similarity, so retrieval tests rank chunks the way a reader would expect.
 */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw new Error(`fakeEmbedding() needs a positive integer dimension, got ${dimensions}`);
  }
  const vector = new Array<number>(dimensions).fill(0);
  for (const feature of features(text)) {
    const digest = createHash('sha256').update(feature).digest();
    const index = digest.readUInt32BE(0) % dimensions;
    const sign = (digest.readUInt8(4) & 1) === 0 ? 1 : -1;
    vector[index] = (vector[index] ?? 0) + sign;
  }
  const norm = Math.hypot(...vector);
  // Words can cancel out in a dimension they share; fall back to the first dimension.
  if (norm === 0) return vector.map((_, index) => (index === 0 ? 1 : 0));
  return vector.map((value) => value / norm);
}

/** A vector as OpenAI's `encoding_format: 'base64'` sends it: little-endian float32 bytes. */
export function embeddingToBase64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => {
    bytes.writeFloatLE(value, index * 4);
  });
  return bytes.toString('base64');
}
