import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { locateYamlPath } from 'yaml-diagnostics';
import { errorMessage } from '../support.js';
import { RecordingError } from './recording-error.js';
import {
  RECORDING_FORMAT,
  RECORDING_FORMAT_VERSION,
  type RecordedExchange,
  type RecordingFile,
  recordingFileSchema,
} from './recording-file-schema.js';
import { isJsonObject, type JsonValue, stableStringify } from './stable-json.js';

/** Request body fields stored once per file by hash: long and repeated in every request of a case. */
const SHARED_FIELDS = ['system', 'tools'] as const;
const SHARED_REFERENCE = /^sha256:[0-9a-f]{64}$/;

/** The file of a case: its name made safe for every file system, plus a short hash so two names never share one. */
export function caseFileName(caseName: string): string {
  const slug =
    caseName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'case';
  const hash = createHash('sha256').update(caseName, 'utf8').digest('hex').slice(0, 8);
  return `${slug}.${hash}.json`;
}

function hashOf(value: JsonValue): string {
  return `sha256:${createHash('sha256').update(stableStringify(value), 'utf8').digest('hex')}`;
}

/** The file's text: shared values by hash, keys sorted, two-space indent, one final newline. */
export function serialiseRecording(file: Omit<RecordingFile, 'shared'>): string {
  const shared: Record<string, JsonValue> = {};
  const exchanges = file.exchanges.map((exchange) => {
    const body = exchange.request.body;
    if (!isJsonObject(body)) return exchange;
    const packed: { [key: string]: JsonValue } = { ...body };
    for (const field of SHARED_FIELDS) {
      const value = body[field];
      if (value === undefined || (typeof value === 'string' && value.length < 80)) continue;
      const hash = hashOf(value);
      shared[hash] = value;
      packed[field] = hash;
    }
    return { ...exchange, request: { ...exchange.request, body: packed } };
  });
  const value = { ...file, exchanges, shared } as unknown as JsonValue;
  return `${stableStringify(value, 2)}\n`;
}

/** Writes `text` to `file` through a temporary file and a rename: an interrupted write leaves no half file. */
export async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

function lineOfOffset(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Where a YAML parser (JSON is YAML) stops on the text: for Node versions whose JSON errors give no position. */
function yamlErrorPosition(text: string): { line: number; column: number } {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  const position = document.errors[0]?.linePos?.[0];
  return position ? { line: position.line, column: position.col } : { line: 1, column: 1 };
}

const FIX =
  're-record it with `holodeck test <agent.yaml> --record --re-record`, or restore it from version control';

function syntaxError(file: string, text: string, error: unknown): RecordingError {
  const message = errorMessage(error);
  const offset = /position (\d+)/.exec(message)?.[1];
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  const where = lineColumn
    ? { line: Number(lineColumn[1]), column: Number(lineColumn[2]) }
    : offset !== undefined
      ? lineOfOffset(text, Number(offset))
      : yamlErrorPosition(text);
  return new RecordingError(
    `${file}:${where.line}:${where.column}  not valid JSON (${message.split('\n')[0]})\n    hint: ${FIX}`,
    file,
    where.line,
  );
}

function expandShared(file: string, parsed: RecordingFile): RecordedExchange[] {
  return parsed.exchanges.map((exchange, index) => {
    const body = exchange.request.body;
    if (!isJsonObject(body)) return exchange;
    const expanded: { [key: string]: JsonValue } = { ...body };
    for (const field of SHARED_FIELDS) {
      const value = body[field];
      if (typeof value !== 'string' || !SHARED_REFERENCE.test(value)) continue;
      const stored = parsed.shared[value];
      if (stored === undefined)
        throw new RecordingError(
          `${file}  exchanges[${index}].request.body.${field}: ${value} is not in "shared"\n    hint: ${FIX}`,
          file,
        );
      expanded[field] = stored;
    }
    return { ...exchange, request: { ...exchange.request, body: expanded } };
  });
}

/** Reads and checks one recording file; shared values are expanded back into the requests. */
export async function readRecordingFile(file: string): Promise<RecordingFile> {
  const text = await readFile(file, 'utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw syntaxError(file, text, error);
  }
  const result = recordingFileSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const fieldPath = (issue?.path ?? []).filter(
      (segment): segment is string | number => typeof segment !== 'symbol',
    );
    const lineCounter = new LineCounter();
    const document = parseDocument(text, { lineCounter });
    const where = locateYamlPath(document, lineCounter, fieldPath);
    const field = fieldPath.map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${segment}`));
    const format =
      isJsonObject(raw) && (raw.format !== RECORDING_FORMAT || raw.version !== RECORDING_FORMAT_VERSION)
        ? `not a HoloDeck recording of format ${RECORDING_FORMAT} version ${RECORDING_FORMAT_VERSION}: `
        : '';
    throw new RecordingError(
      `${file}:${where.line}:${where.column}  ${format}${field.join('').replace(/^\./, '') || '(file)'}: ${issue?.message ?? 'invalid'}\n    hint: ${FIX}`,
      file,
      where.line,
    );
  }
  return { ...result.data, exchanges: expandShared(file, result.data) };
}

/** Every recording file of a folder, read and checked (a folder of none is fine: every case is then missing). */
export async function readRecordingFolder(
  directory: string,
): Promise<Map<string, { file: string; recording: RecordingFile }>> {
  const names = (await readdir(directory)).filter((name) => name.endsWith('.json')).sort();
  // Read at once; a broken file is reported in name order, whichever failed first.
  const files = names.map((name) => path.join(directory, name));
  const read = await Promise.allSettled(files.map((file) => readRecordingFile(file)));
  const byCase = new Map<string, { file: string; recording: RecordingFile }>();
  read.forEach((outcome, index) => {
    if (outcome.status === 'rejected') throw outcome.reason;
    byCase.set(outcome.value.case, { file: files[index] as string, recording: outcome.value });
  });
  return byCase;
}
