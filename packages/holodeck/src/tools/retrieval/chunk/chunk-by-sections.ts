import type { ParsedSource } from '../parse/parsed-source.js';
import type { Chunk } from './chunk.js';
import { lastTokens, splitByTokens } from './split-by-tokens.js';
import { splitMarkdownSections } from './split-markdown-sections.js';
import { countTokens } from './tokenizer.js';

/** Options of the hierarchical_document chunker (counted in cl100k_base tokens). */
export interface SectionChunking {
  maxChunkTokens: number;
  chunkOverlap: number;
}

/** A heading path as a stable section id: lower-case words joined by "-", levels by "/". */
export function sectionIdOf(headingPath: readonly string[]): string {
  const slug = (heading: string) =>
    heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '') || 'section';
  return headingPath.length ? headingPath.map(slug).join('/') : '(top)';
}

/**
 * Packs a section's blocks into pieces of at most `max` tokens. A block that fits is never cut
 * (a table or a fenced code block stays whole); a longer one is cut by tokens. A piece after the
 * first starts with the last `overlap` tokens of the one before.
 */
function packBlocks(blocks: readonly string[], max: number, overlap: number): string[] {
  const pieces: string[] = [];
  let current: string[] = [];
  // Tokens in `current`, counting "\n\n" between blocks as one.
  let size = 0;
  // Whether `current` holds a block not emitted yet (not only the carried overlap).
  let fresh = false;
  const emit = () => {
    if (!fresh) return;
    const text = current.join('\n\n');
    pieces.push(text);
    const carried = overlap > 0 ? lastTokens(text, overlap) : '';
    current = carried ? [carried] : [];
    size = carried ? countTokens(carried) + 1 : 0;
    fresh = false;
  };
  for (const block of blocks) {
    const tokens = countTokens(block);
    if (tokens > max) {
      emit();
      pieces.push(...splitByTokens(block, max, Math.min(overlap, max - 1)));
      current = [];
      size = 0;
      continue;
    }
    if (size + tokens > max) {
      emit();
      // The carried overlap leaves no room for this block: it starts the chunk alone.
      if (size + tokens > max) {
        current = [];
        size = 0;
      }
    }
    current.push(block);
    size += tokens + 1;
    fresh = true;
  }
  emit();
  // Joined blocks count their own tokens (the "\n\n" estimate can be off by a token or two): a
  // piece over the bound is cut again, so `max` is a hard bound on every chunk's text.
  return pieces.flatMap((piece) => (countTokens(piece) > max ? splitByTokens(piece, max, 0) : [piece]));
}

/**
 * hierarchical_document chunks: markdown follows its headings (each chunk carries its heading
 * path and section id); text without headings (plain text, PDF pages) is packed by paragraphs.
 * Records become one chunk each, like in a vectorstore.
 */
export function chunkBySections(source: string, parsed: ParsedSource, options: SectionChunking): Chunk[] {
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
    const sections =
      parsed.format === 'markdown'
        ? splitMarkdownSections(page.text)
        : [
            {
              headingPath: [],
              blocks: page.text
                .split(/\n\s*\n/)
                .map((block) => block.trim())
                .filter(Boolean),
            },
          ];
    for (const section of sections) {
      const sectionId = sectionIdOf(section.headingPath);
      for (const text of packBlocks(section.blocks, options.maxChunkTokens, options.chunkOverlap)) {
        chunks.push({
          id: `${source}#${chunks.length + 1}`,
          source,
          title: parsed.title,
          headingPath: section.headingPath,
          sectionId,
          ...(page.page !== undefined ? { page: page.page } : {}),
          text,
          metadata: {},
        });
      }
    }
  }
  return chunks;
}
