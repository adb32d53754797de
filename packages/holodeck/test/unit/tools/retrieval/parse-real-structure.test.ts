import { describe, expect, it } from 'vitest';
import { chunkBySections } from '../../../../src/tools/retrieval/chunk/chunk-by-sections.js';
import { parseDocx } from '../../../../src/tools/retrieval/parse/parse-docx.js';
import { parseHtml } from '../../../../src/tools/retrieval/parse/parse-html.js';
import { makeDocx } from '../../../support/make-documents.js';

const sections = (html: string) =>
  chunkBySections('page.html', parseHtml(html, 'page.html'), { maxChunkTokens: 800, chunkOverlap: 0 });

describe('HTML as real pages write it', () => {
  it('keeps # lines of unfenced <pre> code in the code, not as headings', () => {
    const chunks = sections(
      '<h1>zlib Usage Example</h1><p>The header files:</p><pre>#include &lt;stdio.h&gt;\n#define CHUNK 16384\n# comment</pre><p>CHUNK is the buffer size.</p>',
    );
    expect(chunks.map((chunk) => chunk.headingPath)).toEqual([['zlib Usage Example']]);
    expect(chunks[0]?.text).toContain('```\n#include <stdio.h>\n#define CHUNK 16384\n# comment\n```');
  });

  it('keeps a table as rows of a Markdown table, one line per row', () => {
    const chunks = sections(
      '<h2>Limits</h2><table><thead><tr><th>name</th><th>max</th></tr></thead><tbody><tr><td>weight</td><td>100</td></tr><tr><td>a|b</td><td>5</td></tr></tbody></table>',
    );
    expect(chunks[0]?.text).toBe('| name | max |\n| --- | --- |\n| weight | 100 |\n| a\\|b | 5 |');
  });

  it('leaves no Markdown escapes in the text, and a paragraph starting with # is no heading', () => {
    const chunks = sections(
      '<h1>Steps</h1><p>2. Set L* to 3_000 [sic] and use a+b.</p><p># not a heading</p>',
    );
    expect(chunks.map((chunk) => chunk.headingPath)).toEqual([['Steps']]);
    expect(chunks[0]?.text).toBe('2. Set L* to 3_000 [sic] and use a+b.\n\n\\# not a heading');
  });
});

describe('DOCX', () => {
  it("takes the Title paragraph as the document's title", async () => {
    const parsed = await parseDocx(
      makeDocx([
        { text: 'Employee Handbook', title: true },
        { text: 'Leave', heading: 1 },
        { text: 'Annual leave is 25 days.' },
      ]),
      'handbook.docx',
    );
    expect(parsed.kind === 'document' && parsed.title).toBe('Employee Handbook');
    const chunks = chunkBySections('handbook.docx', parsed, { maxChunkTokens: 800, chunkOverlap: 0 });
    expect(chunks.map((chunk) => [chunk.title, chunk.headingPath, chunk.text])).toEqual([
      ['Employee Handbook', ['Leave'], 'Annual leave is 25 days.'],
    ]);
  });

  it('keeps a Word table as rows of a Markdown table, with or without a repeated header row', async () => {
    for (const headerRow of [true, false]) {
      const parsed = await parseDocx(
        makeDocx([
          { text: 'Leave', heading: 1 },
          { text: 'Days by grade:' },
          {
            table: [
              ['grade', 'days'],
              ['A', '25'],
              ['B|C', '28'],
            ],
            headerRow,
          },
          { text: 'After the table.' },
        ]),
        'leave.docx',
      );
      const chunks = chunkBySections('leave.docx', parsed, { maxChunkTokens: 800, chunkOverlap: 0 });
      expect(
        chunks.map((chunk) => [chunk.headingPath, chunk.text]),
        `headerRow ${headerRow}`,
      ).toEqual([
        [
          ['Leave'],
          'Days by grade:\n\n| grade | days |\n| --- | --- |\n| A | 25 |\n| B\\|C | 28 |\n\nAfter the table.',
        ],
      ]);
    }
  });
});
