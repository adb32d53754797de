import type { ParsedSource } from '../parse/parsed-source.js';
import type { Chunk } from './chunk.js';
import { splitByTokens } from './split-by-tokens.js';

/** Options of the vectorstore chunker (counted in cl100k_base tokens). */
export interface TokenChunking {
  chunkSize: number;
  chunkOverlap: number;
}

/**
 * vectorstore chunks: each page cut into windows of `chunkSize` tokens sharing `chunkOverlap`
 * tokens (a chunk never spans two PDF pages, so each cites one page); one chunk per record.
 */
export function chunkByTokens(source: string, parsed: ParsedSource, options: TokenChunking): Chunk[] {
  if (parsed.kind === 'records') {
    return parsed.records.map((record) => ({
      id: `${source}#${record.id}`,
      source,
      title: source,
      headingPath: [],
      text: record.text,
      metadata: record.metadata,
    }));
  }
  const chunks: Chunk[] = [];
  for (const page of parsed.pages) {
    for (const text of splitByTokens(page.text, options.chunkSize, options.chunkOverlap)) {
      chunks.push({
        id: `${source}#${chunks.length + 1}`,
        source,
        title: parsed.title,
        headingPath: [],
        ...(page.page !== undefined ? { page: page.page } : {}),
        text,
        metadata: {},
      });
    }
  }
  return chunks;
}
