import { parse as parseCsv } from 'csv-parse/sync';
import type { ParsedSource, SourceRecord } from './parsed-source.js';
import type { RecordFields } from './record-fields.js';

/** A source file that parses but whose content does not fit the tool's settings. */
export class SourceFormatError extends Error {
  override name = 'SourceFormatError';
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Turns parsed rows into records, checking the named fields exist. */
export function toRecords(rows: readonly unknown[], fields: RecordFields): ParsedSource {
  const records: SourceRecord[] = [];
  const seen = new Set<string>();
  for (const [index, row] of rows.entries()) {
    if (!isPlainObject(row)) {
      throw new SourceFormatError(
        `record ${index + 1} is ${Array.isArray(row) ? 'an array' : typeof row}, not an object`,
      );
    }
    for (const field of [...(fields.vectorFields ?? []), ...(fields.idField ? [fields.idField] : [])]) {
      if (!(field in row)) {
        const known = Object.keys(row).join(', ') || 'none';
        throw new SourceFormatError(`record ${index + 1} has no field "${field}" (its fields: ${known})`);
      }
    }
    const id = fields.idField ? asText(row[fields.idField]) : String(index + 1);
    if (seen.has(id)) throw new SourceFormatError(`id_field "${fields.idField}" value "${id}" appears twice`);
    seen.add(id);
    const text = fields.vectorFields
      ? fields.vectorFields.map((field) => asText(row[field])).join('\n')
      : Object.entries(row)
          .map(([key, value]) => `${key}: ${asText(value)}`)
          .join('\n');
    const metadata = Object.fromEntries(
      fields.metaFields.filter((field) => field in row).map((field) => [field, asText(row[field])]),
    );
    if (text.trim()) records.push({ id, text, metadata });
  }
  return { kind: 'records', records };
}

/** CSV with a header row; every row is one record. */
export function parseCsvRecords(text: string, fields: RecordFields): ParsedSource {
  const rows: unknown[] = parseCsv(text, { columns: true, skip_empty_lines: true, bom: true, trim: true });
  return toRecords(rows, fields);
}

/** The records of a JSON document: the array at `record_path`, or the document itself. */
export function parseJsonRecords(text: string, fields: RecordFields): ParsedSource {
  let value: unknown = JSON.parse(text);
  for (const key of fields.recordPath ? fields.recordPath.split('.') : []) {
    if (!isPlainObject(value) || !(key in value)) {
      throw new SourceFormatError(`record_path "${fields.recordPath}" not found: no key "${key}"`);
    }
    value = value[key];
  }
  if (!Array.isArray(value)) {
    const where = fields.recordPath ? `record_path "${fields.recordPath}"` : 'the document';
    throw new SourceFormatError(
      `${where} is not an array of records${fields.recordPath ? '' : ' (set record_path)'}`,
    );
  }
  return toRecords(value, fields);
}

/** One JSON object per line. */
export function parseJsonlRecords(text: string, fields: RecordFields): ParsedSource {
  const rows = text
    .split(/\r?\n/)
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line)
    .map(({ line, number }) => {
      try {
        return JSON.parse(line) as unknown;
      } catch (error) {
        throw new SourceFormatError(
          `line ${number} is not JSON: ${error instanceof Error ? error.message : error}`,
        );
      }
    });
  return toRecords(rows, fields);
}
