import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkBySections } from '../../../../src/tools/retrieval/chunk/chunk-by-sections.js';
import { chunkByTokens } from '../../../../src/tools/retrieval/chunk/chunk-by-tokens.js';
import { splitByTokens } from '../../../../src/tools/retrieval/chunk/split-by-tokens.js';
import { countTokens } from '../../../../src/tools/retrieval/chunk/tokenizer.js';
import type { ParsedSource } from '../../../../src/tools/retrieval/parse/parsed-source.js';

const document = (text: string, format: 'markdown' | 'text' = 'text'): ParsedSource => ({
  kind: 'document',
  title: 'doc',
  format,
  pages: [{ text }],
});

// Pieces of text whose tokens merge differently once cut: spaces, CJK, emoji, digits, punctuation.
const fragments = fc.constantFrom(
  ' ',
  '  ',
  'word',
  'über',
  '日本語',
  '👍🏽',
  '12345',
  '...',
  '\n',
  '\n\n',
  '—',
  'a-b',
);

describe('chunk sizes are a hard bound', () => {
  it('splitByTokens never yields a piece over the size, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.array(fragments, { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 16, max: 64 }),
        (parts, size) => {
          for (const piece of splitByTokens(parts.join(''), size, Math.floor(size / 8)))
            expect(countTokens(piece)).toBeLessThanOrEqual(size);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('chunk_size 512 and max_chunk_tokens 512 give no chunk of 513 tokens', () => {
    const text = Array.from({ length: 3000 }, (_, index) => (index % 7 === 0 ? '👍🏽 ' : `w${index} `)).join(
      '',
    );
    const paragraphs = Array.from(
      { length: 40 },
      (_, index) => `Paragraph ${index}: ${'data '.repeat(40 + index)}`,
    ).join('\n\n');
    const tokenChunks = chunkByTokens('a.txt', document(text), { chunkSize: 512, chunkOverlap: 64 });
    const sectionChunks = chunkBySections('b.md', document(`# T\n\n${paragraphs}`, 'markdown'), {
      maxChunkTokens: 512,
      chunkOverlap: 32,
    });
    for (const chunk of [...tokenChunks, ...sectionChunks])
      expect(countTokens(chunk.text)).toBeLessThanOrEqual(512);
    expect(tokenChunks.length).toBeGreaterThan(1);
  });

  it('indexes a document that contains tiktoken special tokens as text', () => {
    const text = 'A model ends its output with <|endoftext|> and FIM uses <|fim_prefix|>.';
    const chunks = chunkByTokens('readme.md', document(text), { chunkSize: 512, chunkOverlap: 0 });
    expect(chunks.map((chunk) => chunk.text)).toEqual([text]);
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });
});
