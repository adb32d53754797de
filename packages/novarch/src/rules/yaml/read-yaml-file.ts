import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Document, isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { NovarchFileIssue } from '../../errors.js';
import { describeParent, type FieldIssue, formatFieldPath, isRecord } from './field-issue.js';
import { locateYamlPath } from './locate-yaml-path.js';

/** A YAML file parsed with positions, ready for schema checks. */
export interface YamlFile {
  /** Absolute path (or the name given to `parseYamlSource`). */
  file: string;
  source: string;
  document: Document;
  lineCounter: LineCounter;
  /** The top-level mapping as plain data (later duplicate keys win; they are reported anyway). */
  data: Record<string, unknown>;
  /** Duplicate keys, found here so that checking can go on and report other problems too. */
  duplicateKeys: FieldIssue[];
}

/** Reads and parses a YAML file whose top level must be a mapping; `what` names it in messages. */
export async function readYamlFile(
  file: string,
  what: { noun: string; example: string },
): Promise<{ ok: true; yaml: YamlFile } | { ok: false; issues: NovarchFileIssue[] }> {
  const absolute = path.resolve(file);
  const fail = (message: string, hint: string, line?: number, column?: number) => ({
    ok: false as const,
    issues: [{ file: absolute, ...(line === undefined ? {} : { line, column }), path: '', message, hint }],
  });
  let source: string;
  try {
    source = await readFile(absolute, 'utf8');
  } catch (error) {
    const missing = error instanceof Error && 'code' in error && error.code === 'ENOENT';
    const reason = missing ? 'not found' : `cannot be read (${String(error)})`;
    return fail(`${what.noun} ${reason}`, `check the path; ${what.example}`);
  }
  return parseYamlSource(source, absolute, what);
}

/** How many alias expansions a file may have: a rules file needs few, an alias bomb billions. */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses YAML text whose top level must be a mapping, as `readYamlFile` does a file's; `name` is
 * what messages call it (a path, or e.g. `cs-ops v3 (stored)` for rules read from the store).
 */
export function parseYamlSource(
  source: string,
  name: string,
  what: { noun: string; example: string },
): { ok: true; yaml: YamlFile } | { ok: false; issues: NovarchFileIssue[] } {
  const absolute = name;
  const fail = (message: string, hint: string, line?: number, column?: number) => ({
    ok: false as const,
    issues: [{ file: absolute, ...(line === undefined ? {} : { line, column }), path: '', message, hint }],
  });
  const lineCounter = new LineCounter();
  const document = parseDocument(source, { lineCounter, uniqueKeys: false, prettyErrors: true });
  if (document.errors.length > 0) {
    return {
      ok: false,
      issues: document.errors.map((error) => ({
        file: absolute,
        line: error.linePos?.[0].line ?? 1,
        column: error.linePos?.[0].col ?? 1,
        path: '',
        message: `invalid YAML: ${(error.message.split(' at line ')[0] ?? error.message).trim()}`,
        hint: 'check the indentation, quotes and brackets on this line and the one before it',
      })),
    };
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // The yaml library refuses alias chains that expand without bound (a "billion laughs").
    if (!(error instanceof ReferenceError)) throw error;
    return fail(
      `the YAML expands its aliases (*name) more than ${MAX_ALIAS_COUNT} times`,
      'write the repeated values out, or use fewer anchors and aliases',
      1,
      1,
    );
  }
  if (data === null || data === undefined) return fail(`${what.noun} is empty`, what.example, 1, 1);
  if (!isRecord(data) || !isMap(document.contents)) {
    const { line, column } = locateYamlPath(document, lineCounter, []);
    const got = Array.isArray(data) ? 'a list' : 'a single value';
    return fail(`the top level must be a mapping of keys, got ${got}`, what.example, line, column);
  }
  const duplicateKeys = findDuplicateKeys(document, lineCounter);
  return { ok: true, yaml: { file: absolute, source, document, lineCounter, data, duplicateKeys } };
}

/** Gives each field issue its file, line and column, sorted by position. */
export function locateIssues(yaml: YamlFile, issues: readonly FieldIssue[]): NovarchFileIssue[] {
  return issues
    .map((issue) => {
      const position =
        issue.position ?? locateYamlPath(yaml.document, yaml.lineCounter, issue.path, issue.anchor);
      return {
        file: yaml.file,
        line: position.line,
        column: position.column,
        path: formatFieldPath(issue.path),
        message: issue.message,
        ...(issue.hint === undefined ? {} : { hint: issue.hint }),
      };
    })
    .sort((a, b) => a.line - b.line || a.column - b.column);
}

function findDuplicateKeys(document: Document, lineCounter: LineCounter): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const walk = (node: unknown, at: (string | number)[]): void => {
    if (isSeq(node)) {
      node.items.forEach((item, index) => {
        walk(item, [...at, index]);
      });
      return;
    }
    if (!isMap(node)) return;
    const firstLines = new Map<string, number>();
    for (const pair of node.items) {
      if (!isScalar(pair.key)) continue;
      const key = String(pair.key.value);
      const { line, col } = lineCounter.linePos(pair.key.range?.[0] ?? 0);
      const firstLine = firstLines.get(key);
      if (firstLine === undefined) {
        firstLines.set(key, line);
        walk(pair.value, [...at, key]);
        continue;
      }
      issues.push({
        path: [...at, key],
        position: { line, column: col },
        message: `duplicate key "${key}" ${describeParent(at)}`,
        hint: `"${key}" is already set on line ${firstLine}; keep only one of them`,
      });
    }
  };
  walk(document.contents, []);
  return issues;
}
