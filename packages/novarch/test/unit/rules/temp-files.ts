import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { NovarchConfigError, type NovarchFileIssue, RulesError } from '../../../src/errors.js';

/** A temporary directory removed after the file's tests; `write` puts a file in it and returns its path. */
export function useTempDir(): { dir: string; write: (name: string, text: string) => string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'novarch-rules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    write(name, text) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      return file;
    },
  };
}

/** An issue as one line a test can compare: `line:column path: message (hint)`. */
export function describeIssue(issue: NovarchFileIssue): string {
  const hint = issue.hint === undefined ? '' : ` (hint: ${issue.hint})`;
  return `${issue.line}:${issue.column} ${issue.path}: ${issue.message}${hint}`;
}

/** Runs `load` and returns the issues of the error it throws, one line each. */
export async function issuesOf(load: () => Promise<unknown>): Promise<string[]> {
  try {
    await load();
  } catch (error) {
    if (error instanceof RulesError || error instanceof NovarchConfigError)
      return error.issues.map(describeIssue);
    throw error;
  }
  throw new Error('expected the load to fail');
}
