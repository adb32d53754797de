import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Document, LineCounter } from 'yaml';
import { isMap } from 'yaml';
import {
  type FieldIssue,
  formatFieldPath,
  isRecord,
  locateYamlPath,
  parseYamlWithPositions,
} from 'yaml-diagnostics';
import type { NovarchFileIssue } from '../../errors.js';

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
  const parsed = parseYamlWithPositions(source);
  if (!parsed.ok && parsed.reason === 'syntax') {
    return {
      ok: false,
      issues: parsed.problems.map((problem) => ({ file: absolute, path: '', ...problem })),
    };
  }
  if (!parsed.ok) {
    return fail(
      `the YAML expands its aliases (*name) more than ${parsed.maxAliasCount} times`,
      'write the repeated values out, or use fewer anchors and aliases',
      parsed.position.line,
      parsed.position.column,
    );
  }
  const { document, lineCounter, data, duplicateKeys } = parsed;
  if (data === null || data === undefined) return fail(`${what.noun} is empty`, what.example, 1, 1);
  if (!isRecord(data) || !isMap(document.contents)) {
    const { line, column } = locateYamlPath(document, lineCounter, []);
    const got = Array.isArray(data) ? 'a list' : 'a single value';
    return fail(`the top level must be a mapping of keys, got ${got}`, what.example, line, column);
  }
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
