/**
 * Splits text into at most `count` consecutive pieces at word boundaries (whitespace stays
 * attached to the preceding word), so `pieces.join('') === text`. Used to stream a text block
 * as several `text_delta` events.
 */
export function splitIntoWordChunks(text: string, count = 3): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  if (words.length <= 1) return [text];
  const perChunk = Math.ceil(words.length / Math.max(1, count));
  const chunks: string[] = [];
  for (let start = 0; start < words.length; start += perChunk) {
    chunks.push(words.slice(start, start + perChunk).join(''));
  }
  return chunks;
}

/** Splits a string into at most `count` pieces of (nearly) equal length; `pieces.join('') === text`. */
export function splitIntoEqualChunks(text: string, count = 3): string[] {
  if (text.length <= 1) return [text];
  const size = Math.ceil(text.length / Math.max(1, count));
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += size) chunks.push(text.slice(start, start + size));
  return chunks;
}
