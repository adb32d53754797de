import type { ScoredChunk } from '../store/retrieval-store.js';

/** What a search returns when nothing matched. */
export const NO_RESULTS = 'No results found.';

/** Whether a tool's answer is search results in this format (its first citation line). */
export function isFormattedResults(text: string): boolean {
  return text.startsWith('[1] source: ');
}

/** The citation line of one result: `[n] source: … | page: … | heading: … | section: … | chunk: … | score: …`. */
export function citationLine(position: number, hit: ScoredChunk): string {
  const { chunk } = hit;
  const parts = [
    `source: ${chunk.source}`,
    ...(chunk.page !== undefined ? [`page: ${chunk.page}`] : []),
    ...(chunk.headingPath.length ? [`heading: ${chunk.headingPath.join(' > ')}`] : []),
    ...(chunk.sectionId !== undefined && chunk.headingPath.length ? [`section: ${chunk.sectionId}`] : []),
    ...Object.entries(chunk.metadata).map(([key, value]) => `${key}: ${value}`),
    `chunk: ${chunk.id}`,
    `score: ${hit.score.toFixed(4)}`,
  ];
  return `[${position}] ${parts.join(' | ')}`;
}

/**
 * The text the model reads: one block per result, best first, each a citation line then the
 * chunk's text, blocks separated by a blank line; "No results found." when there are none.
 */
export function formatResults(hits: readonly ScoredChunk[]): string {
  if (!hits.length) return NO_RESULTS;
  return hits.map((hit, index) => `${citationLine(index + 1, hit)}\n${hit.chunk.text}`).join('\n\n');
}
