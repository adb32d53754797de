import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseSourceFile } from '../../../../src/tools/retrieval/parse/parse-source-file.js';
import type { RecordFields } from '../../../../src/tools/retrieval/parse/record-fields.js';

// Source files that are not what their extension says are refused with where and how to fix,
// instead of being indexed as noise; pdf.js's console warnings stay out of holodeck's output.
const folder = mkdtempSync(path.join(tmpdir(), 'holodeck-parse-text-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const fields: RecordFields = { metaFields: [] };

function write(name: string, bytes: Uint8Array | string): string {
  const file = path.join(folder, name);
  writeFileSync(file, bytes);
  return file;
}

describe('text source files', () => {
  it('a .md file holding binary bytes is refused, naming the first NUL byte', async () => {
    const file = write('logo.md', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]));
    await expect(parseSourceFile(file, fields)).rejects.toThrow(
      'holds binary data (a NUL byte at byte 8), not .md text: remove it from the source folder or convert it to UTF-8 text',
    );
  });

  it('a .txt or .csv file in Latin-1 is refused, naming the byte and where it is', async () => {
    const latin1 = Buffer.from('caf\xe9 au lait\n', 'latin1');
    await expect(parseSourceFile(write('menu.txt', latin1), fields)).rejects.toThrow(
      'is not UTF-8 text (byte 0xE9 at byte 3): save it as UTF-8',
    );
    await expect(
      parseSourceFile(write('menu.csv', Buffer.from('name\ncaf\xe9\n', 'latin1')), fields),
    ).rejects.toThrow('is not UTF-8 text (byte 0xE9 at byte 8): save it as UTF-8');
  });

  it('UTF-8 text, with a byte-order mark or multi-byte characters, is read as before', async () => {
    const parsed = await parseSourceFile(write('notes.md', '\ufeff# Café\n\nNaïve “quotes” 😀.\n'), fields);
    expect(JSON.stringify(parsed)).toContain('Naïve “quotes” 😀.');
  });
});

describe('PDF sources', () => {
  it("pdf.js's warnings about a damaged file are not printed", async () => {
    const spec = path.resolve(
      path.dirname(fileURLToPath(import.meta.url)),
      '../../../../../../bench/retrieval-quality/corpus/docs/shared-mime-info-spec.pdf',
    );
    const text = readFileSync(spec).toString('latin1');
    // A wrong startxref offset: pdf.js recovers by indexing every object, and warns so.
    const damaged = `${text.slice(0, text.lastIndexOf('startxref'))}startxref\n999\n%%EOF\n`;
    const log = vi.spyOn(console, 'log');
    const warn = vi.spyOn(console, 'warn');
    try {
      const parsed = await parseSourceFile(write('damaged.pdf', Buffer.from(damaged, 'latin1')), fields);
      expect(parsed.kind).toBe('document');
      expect(log).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
      warn.mockRestore();
    }
  });
});
