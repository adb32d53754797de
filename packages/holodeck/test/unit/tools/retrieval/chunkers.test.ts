import { describe, expect, it } from 'vitest';
import type { Chunk } from '../../../../src/tools/retrieval/chunk/chunk.js';
import { embeddingText } from '../../../../src/tools/retrieval/chunk/chunk.js';
import { chunkBySections, sectionIdOf } from '../../../../src/tools/retrieval/chunk/chunk-by-sections.js';
import { chunkByTokens } from '../../../../src/tools/retrieval/chunk/chunk-by-tokens.js';
import { lastTokens, splitByTokens } from '../../../../src/tools/retrieval/chunk/split-by-tokens.js';
import { splitMarkdownSections } from '../../../../src/tools/retrieval/chunk/split-markdown-sections.js';
import {
  countTokens,
  encodeTokens,
  TOKENIZER_NAME,
} from '../../../../src/tools/retrieval/chunk/tokenizer.js';
import type { ParsedSource } from '../../../../src/tools/retrieval/parse/parsed-source.js';

/** `count` distinct words, `w0 w1 …`: each is a few tokens, and every one can be found again. */
const words = (count: number, prefix = 'w') => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

const markdown = (text: string, title = 'Doc'): ParsedSource => ({
  kind: 'document',
  title,
  format: 'markdown',
  pages: [{ text }],
});

describe('tokenizer', () => {
  it('counts in cl100k_base, the encoding of OpenAI’s embedding models', () => {
    expect(TOKENIZER_NAME).toBe('cl100k_base');
    // Reference ids from OpenAI's tiktoken for cl100k_base.
    expect(encodeTokens('tiktoken is great!')).toEqual([83, 1609, 5963, 374, 2294, 0]);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
  });
});

describe('splitByTokens (vectorstore windows)', () => {
  const text = words(120).join(' ');

  it('cuts windows of at most chunk_size tokens that share chunk_overlap tokens, covering the whole text', () => {
    const pieces = splitByTokens(text, 40, 10);
    expect(pieces.length).toBeGreaterThan(3);
    for (const piece of pieces) expect(countTokens(piece)).toBeLessThanOrEqual(40);
    for (const [index, piece] of pieces.entries()) {
      const next = pieces[index + 1];
      if (next === undefined) break;
      // The next window starts with the last 10 tokens of this one.
      expect(next.startsWith(lastTokens(piece, 10))).toBe(true);
      expect(countTokens(lastTokens(piece, 10))).toBe(10);
    }
    const covered = new Set(pieces.join(' ').split(/\s+/));
    for (const word of words(120)) expect(covered).toContain(word);
    // Windows advance by size - overlap tokens: ceil((total - overlap) / step) of them.
    const total = countTokens(text);
    expect(pieces).toHaveLength(Math.ceil((total - 10) / 30));
  });

  it('without overlap, windows are disjoint and rebuild the text', () => {
    const pieces = splitByTokens(text, 25, 0);
    // A window may end inside a word (it is cut by tokens); only the blanks at its ends are trimmed.
    const squeeze = (value: string) => value.replace(/\s+/g, '');
    expect(squeeze(pieces.join(''))).toBe(squeeze(text));
    expect(pieces.every((piece) => countTokens(piece) <= 25)).toBe(true);
  });

  it('gives one piece for a short text, none for an empty one, and refuses an overlap ≥ size', () => {
    expect(splitByTokens('Refunds take 30 days.', 512, 64)).toEqual(['Refunds take 30 days.']);
    expect(splitByTokens('', 512, 64)).toEqual([]);
    expect(() => splitByTokens(text, 10, 10)).toThrow(
      'splitByTokens(): need 0 <= overlap < size, got size 10, overlap 10',
    );
  });
});

describe('chunkByTokens (vectorstore)', () => {
  it('applies chunk_size and chunk_overlap per page, so a chunk cites one PDF page', () => {
    const parsed: ParsedSource = {
      kind: 'document',
      title: 'manual',
      format: 'text',
      pages: [
        { page: 1, text: words(60, 'a').join(' ') },
        { page: 2, text: 'Short second page.' },
      ],
    };
    const chunks = chunkByTokens('manual.pdf', parsed, { chunkSize: 50, chunkOverlap: 5 });
    expect(chunks.map((chunk) => [chunk.id, chunk.page])).toEqual([
      ['manual.pdf#1', 1],
      ['manual.pdf#2', 1],
      ['manual.pdf#3', 1],
      ['manual.pdf#4', 2],
    ]);
    expect(chunks.every((chunk) => countTokens(chunk.text) <= 50)).toBe(true);
    expect(chunks.slice(0, 3).some((chunk) => chunk.text.includes('Short'))).toBe(false);
    expect(chunks[3]).toEqual({
      id: 'manual.pdf#4',
      source: 'manual.pdf',
      title: 'manual',
      headingPath: [],
      page: 2,
      text: 'Short second page.',
      metadata: {},
    });
  });

  it('makes one chunk per record, whatever its length, with its id and meta fields', () => {
    const parsed: ParsedSource = {
      kind: 'records',
      records: [
        { id: 'q1', text: words(300).join(' '), metadata: { category: 'billing' } },
        { id: 'q2', text: 'How do I reset my password?', metadata: { category: 'account' } },
      ],
    };
    const chunks = chunkByTokens('faq.csv', parsed, { chunkSize: 20, chunkOverlap: 2 });
    expect(chunks.map((chunk) => [chunk.id, chunk.metadata.category])).toEqual([
      ['faq.csv#q1', 'billing'],
      ['faq.csv#q2', 'account'],
    ]);
    expect(chunks[0]?.text).toBe(words(300).join(' '));
  });
});

describe('splitMarkdownSections', () => {
  it('follows ATX headings with their parent chain, and keeps a fenced block and a table whole', () => {
    const sections = splitMarkdownSections(
      [
        'Preamble.',
        '# Guide',
        'Intro.',
        '## Install',
        '```sh',
        'npm ci',
        '',
        '# not a heading inside a fence',
        '```',
        '| os | command |',
        '| --- | --- |',
        '| linux | apt |',
        'After the table.',
        '### Linux',
        'Use apt.',
        '## Upgrade ##',
        'Run it again.',
        '# Other',
        'Done.',
      ].join('\n'),
    );
    expect(sections).toEqual([
      { headingPath: [], blocks: ['Preamble.'] },
      { headingPath: ['Guide'], blocks: ['Intro.'] },
      {
        headingPath: ['Guide', 'Install'],
        blocks: [
          '```sh\nnpm ci\n\n# not a heading inside a fence\n```',
          '| os | command |\n| --- | --- |\n| linux | apt |',
          'After the table.',
        ],
      },
      { headingPath: ['Guide', 'Install', 'Linux'], blocks: ['Use apt.'] },
      { headingPath: ['Guide', 'Upgrade'], blocks: ['Run it again.'] },
      { headingPath: ['Other'], blocks: ['Done.'] },
    ]);
  });
});

describe('chunkBySections (hierarchical_document)', () => {
  const text = (chunks: Chunk[]) => chunks.map((chunk) => chunk.text);

  it('gives each chunk its heading path and a section id, and embeds the path with the text', () => {
    const chunks = chunkBySections(
      'policies.md',
      markdown('# Policies\n\nRules.\n\n## Refunds & Returns\n\nWithin 30 days.'),
      { maxChunkTokens: 800, chunkOverlap: 0 },
    );
    expect(chunks.map((chunk) => [chunk.id, chunk.headingPath, chunk.sectionId, chunk.text])).toEqual([
      ['policies.md#1', ['Policies'], 'policies', 'Rules.'],
      ['policies.md#2', ['Policies', 'Refunds & Returns'], 'policies/refunds-returns', 'Within 30 days.'],
    ]);
    expect(chunks[1] && embeddingText(chunks[1])).toBe('Policies > Refunds & Returns\n\nWithin 30 days.');
    expect(sectionIdOf([])).toBe('(top)');
    expect(sectionIdOf(['Ünïcode ok?', '!!!'])).toBe('ünïcode-ok/section');
  });

  it('packs paragraphs up to max_chunk_tokens and never starts a chunk in the middle of a paragraph', () => {
    const paragraphs = Array.from(
      { length: 12 },
      (_, i) => `Paragraph ${i} ${words(8, `p${i}x`).join(' ')}.`,
    );
    const max = 60;
    const chunks = chunkBySections('a.md', markdown(`# A\n\n${paragraphs.join('\n\n')}`), {
      maxChunkTokens: max,
      chunkOverlap: 0,
    });
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(countTokens(chunk.text)).toBeLessThanOrEqual(max);
      for (const piece of chunk.text.split('\n\n')) expect(paragraphs).toContain(piece);
    }
    expect(text(chunks).join('\n\n')).toBe(paragraphs.join('\n\n'));
  });

  it('keeps a table and a code block that fit a chunk whole, moving them to a chunk of their own', () => {
    const table = [
      '| plan | price |',
      '| --- | --- |',
      ...words(6, 'plan').map((plan) => `| ${plan} | 10 |`),
    ].join('\n');
    const code = ['```js', 'const a = 1;', '', 'const b = 2;', '```'].join('\n');
    const lead = `Lead ${words(20, 'l').join(' ')}.`;
    const max = countTokens(lead) + 10;
    expect(countTokens(table)).toBeLessThanOrEqual(max);
    const chunks = chunkBySections('p.md', markdown(`# Prices\n\n${lead}\n\n${table}\n\n${code}`), {
      maxChunkTokens: max,
      chunkOverlap: 0,
    });
    expect(text(chunks)).toEqual([lead, table, code]);
  });

  it('cuts a block longer than max_chunk_tokens by tokens', () => {
    const long = words(200, 'z').join(' ');
    const chunks = chunkBySections('l.md', markdown(`# Long\n\n${long}`), {
      maxChunkTokens: 50,
      chunkOverlap: 0,
    });
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) {
      expect(countTokens(chunk.text)).toBeLessThanOrEqual(50);
      expect(chunk.headingPath).toEqual(['Long']);
    }
  });

  it('starts each chunk of a section with the last chunk_overlap tokens of the one before', () => {
    const paragraphs = Array.from({ length: 8 }, (_, i) => `Step ${i}: ${words(10, `s${i}x`).join(' ')}.`);
    const chunks = chunkBySections('o.md', markdown(`# Steps\n\n${paragraphs.join('\n\n')}`), {
      maxChunkTokens: 70,
      chunkOverlap: 8,
    });
    expect(chunks.length).toBeGreaterThan(2);
    for (const [index, chunk] of chunks.entries()) {
      expect(countTokens(chunk.text)).toBeLessThanOrEqual(70);
      const previous = chunks[index - 1];
      if (previous) expect(chunk.text.startsWith(lastTokens(previous.text, 8))).toBe(true);
    }
    // Overlap never crosses into another section.
    const two = chunkBySections('t.md', markdown('# A\n\nAlpha text.\n\n# B\n\nBeta text.'), {
      maxChunkTokens: 70,
      chunkOverlap: 8,
    });
    expect(text(two)).toEqual(['Alpha text.', 'Beta text.']);
  });

  it('packs text without headings (plain text, PDF pages) by paragraphs, page by page', () => {
    const chunks = chunkBySections(
      'm.pdf',
      {
        kind: 'document',
        title: 'm',
        format: 'text',
        pages: [
          { page: 1, text: 'One.\n\nTwo.' },
          { page: 2, text: 'Three.' },
        ],
      },
      { maxChunkTokens: 800, chunkOverlap: 0 },
    );
    expect(chunks.map((chunk) => [chunk.text, chunk.page, chunk.headingPath, chunk.sectionId])).toEqual([
      ['One.\n\nTwo.', 1, [], '(top)'],
      ['Three.', 2, [], '(top)'],
    ]);
  });
});
