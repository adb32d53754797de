import { describe, expect, it } from 'vitest';
import { chunkBySections } from '../../../../src/tools/retrieval/chunk/chunk-by-sections.js';
import { parsePdf } from '../../../../src/tools/retrieval/parse/parse-pdf.js';
import { headingsFromFontSizes } from '../../../../src/tools/retrieval/parse/pdf-font-headings.js';
import { makePdf } from '../../../support/make-documents.js';

describe('PDF headings by font size (a PDF without an outline)', () => {
  it('gives chunks the heading path of the larger lines above them, across pages', async () => {
    const parsed = await parsePdf(
      new Uint8Array(
        makePdf([
          [
            { text: 'Installing', size: 20 },
            'Run the installer once per machine.',
            { text: 'On Linux', size: 15 },
            'Use the distribution package instead.',
          ],
          ['It updates itself.', { text: 'Removing', size: 20 }, 'Delete the folder and its settings.'],
        ]),
      ),
      'guide.pdf',
    );
    const chunks = chunkBySections('guide.pdf', parsed, { maxChunkTokens: 800, chunkOverlap: 0 });
    expect(chunks.map((chunk) => [chunk.page, chunk.headingPath, chunk.text])).toEqual([
      [1, ['Installing'], 'Run the installer once per machine.'],
      [1, ['Installing', 'On Linux'], 'Use the distribution package instead.'],
      [2, ['Installing', 'On Linux'], 'It updates itself.'],
      [2, ['Removing'], 'Delete the folder and its settings.'],
    ]);
  });

  it('leaves a PDF set in one size as plain text, without heading paths', async () => {
    const parsed = await parsePdf(
      new Uint8Array(makePdf([['Warranty', 'The warranty covers two years of use.']])),
      'manual.pdf',
    );
    expect(parsed.kind === 'document' && parsed.format).toBe('text');
    const chunks = chunkBySections('manual.pdf', parsed, { maxChunkTokens: 800, chunkOverlap: 0 });
    expect(chunks.map((chunk) => chunk.headingPath)).toEqual([[]]);
  });

  it('takes the body size from most of the text, and no long or letterless large line as a heading', () => {
    const entries = headingsFromFontSizes([
      {
        page: 1,
        lines: [
          { text: 'Overview', size: 18 },
          {
            text: 'Body text of the first section, in the size most of the characters are set in.',
            size: 10,
          },
          { text: 'More body text: these lines outweigh the one long line of the pull quote.', size: 10 },
          { text: 'And a third line of body text, so that the body size is not in doubt at all.', size: 10 },
          { text: '42', size: 24 },
          { text: `A pull quote set large ${'word '.repeat(30)}`, size: 14 },
          { text: 'Details', size: 14 },
          { text: 'Small print.', size: 8 },
        ],
      },
    ]);
    expect(entries).toEqual([
      { title: 'Overview', depth: 1, page: 1 },
      { title: 'Details', depth: 2, page: 1 },
    ]);
  });
});
