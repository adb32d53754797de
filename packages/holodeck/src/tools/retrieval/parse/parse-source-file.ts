import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ParsedSource } from './parsed-source.js';
import { readTextSource } from './read-text-source.js';
import type { RecordFields } from './record-fields.js';

/** File extensions a retrieval tool reads, by parser. */
export const DOCUMENT_EXTENSIONS = [
  '.md',
  '.markdown',
  '.txt',
  '.text',
  '.html',
  '.htm',
  '.pdf',
  '.docx',
] as const;
/** Extensions of structured records (vector_field, id_field, meta_fields, record_path apply). */
export const RECORD_EXTENSIONS = ['.csv', '.json', '.jsonl', '.ndjson'] as const;

/** Whether a file name has an extension some parser reads. */
export function isSupportedFile(file: string): boolean {
  const extension = path.extname(file).toLowerCase();
  return (DOCUMENT_EXTENSIONS as readonly string[]).includes(extension) || isRecordFile(file);
}

/** Whether a file holds structured records. */
export function isRecordFile(file: string): boolean {
  return (RECORD_EXTENSIONS as readonly string[]).includes(path.extname(file).toLowerCase());
}

/**
 * Parses one source file by its extension. Parsers are loaded on first use (pdf.js, mammoth and
 * turndown cost start-up time an agent without such files should not pay). Throws on a file
 * that cannot be parsed (a text format that holds binary or non-UTF-8 bytes included); the caller
 * reports it by name and goes on with the others.
 */
export async function parseSourceFile(file: string, fields: RecordFields): Promise<ParsedSource> {
  const extension = path.extname(file).toLowerCase();
  switch (extension) {
    case '.md':
    case '.markdown':
      return (await import('./parse-markdown.js')).parseMarkdown(await readTextSource(file), file);
    case '.txt':
    case '.text':
      return (await import('./parse-markdown.js')).parseText(await readTextSource(file), file);
    case '.html':
    case '.htm':
      return (await import('./parse-html.js')).parseHtml(await readTextSource(file), file);
    case '.pdf':
      return (await import('./parse-pdf.js')).parsePdf(new Uint8Array(await readFile(file)), file);
    case '.docx':
      return (await import('./parse-docx.js')).parseDocx(await readFile(file), file);
    case '.csv':
      return (await import('./parse-records.js')).parseCsvRecords(await readTextSource(file), fields);
    case '.json':
      return (await import('./parse-records.js')).parseJsonRecords(await readTextSource(file), fields);
    case '.jsonl':
    case '.ndjson':
      return (await import('./parse-records.js')).parseJsonlRecords(await readTextSource(file), fields);
    default:
      throw new Error(`unsupported file type "${extension}"`);
  }
}
