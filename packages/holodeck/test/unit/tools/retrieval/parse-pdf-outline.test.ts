import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chunkBySections } from '../../../../src/tools/retrieval/chunk/chunk-by-sections.js';
import { joinHyphenatedWords, parsePdf } from '../../../../src/tools/retrieval/parse/parse-pdf.js';
import { headingsFromOutline } from '../../../../src/tools/retrieval/parse/pdf-outline-headings.js';

// A real PDF with bookmarks: Debian's shared-mime-info specification, committed with the quality bench.
const specPdf = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../../bench/retrieval-quality/corpus/docs/shared-mime-info-spec.pdf',
);

describe('PDF parsing', () => {
  it('gives chunks the heading path of the outline entry they are under, across pages', async () => {
    const parsed = await parsePdf(new Uint8Array(readFileSync(specPdf)), 'spec.pdf');
    const chunks = chunkBySections('spec.pdf', parsed, { maxChunkTokens: 800, chunkOverlap: 0 });
    const version = chunks.find((chunk) => chunk.text.startsWith('This is version 0.21'));
    expect(version).toMatchObject({ page: 1, headingPath: ['1. Introduction', '1.1. Version'] });
    const layout = chunks.filter((chunk) => chunk.headingPath.at(-1) === '2.1. Directory layout');
    expect(layout.map((chunk) => chunk.page)).toEqual(expect.arrayContaining([2, 3]));
    expect(layout.every((chunk) => chunk.headingPath[0] === '2. Unified system')).toBe(true);
  });

  it('joins words hyphenated across a line end, and leaves other hyphens alone', () => {
    expect(joinHyphenatedWords('the manip-\nulation of iden-\ntifiers, C-\nStyle and x - y')).toBe(
      'the manipulation of identifiers, C-\nStyle and x - y',
    );
  });

  it('places an outline heading before the line with its title, else at the top of its page', () => {
    const pages = headingsFromOutline(
      [
        { page: 1, text: 'Intro text\n1 Start\nfirst words\n# not a heading' },
        { page: 2, text: 'more words' },
      ],
      [
        { title: '1 Start', depth: 1, page: 1 },
        { title: '1.1 Missing', depth: 2, page: 2 },
      ],
    );
    expect(pages[0]?.text).toBe('Intro text\n\n# 1 Start\n\nfirst words\n\\# not a heading');
    expect(pages[1]?.text).toBe('# 1 Start\n## 1.1 Missing\n\nmore words');
  });
});
