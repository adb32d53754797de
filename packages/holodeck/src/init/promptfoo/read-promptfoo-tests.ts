import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'yaml';
import { findCaseFiles } from '../../config/index.js';
import { errorMessage, isRecord } from '../../support.js';
import { JUDGED, type PromptfooAssertion, SAME_NAME, SIMILARITY } from './map-promptfoo-assertion.js';

/** A promptfoo test as its config or a tests file writes it (checked by the caller). */
export type PromptfooTestEntry = Record<string, unknown>;

/** The tests one `file://` reference names: per file, its tests, or why it gave none. */
export interface PromptfooTestFile {
  /** The file, relative to the promptfoo config's folder (as the user wrote it, globs expanded). */
  file: string;
  tests: PromptfooTestEntry[];
  /** What could not be read, one line each (listed as not converted). */
  problems: string[];
}

/** Assertion types a CSV `__expected` cell may name as `type:value` (promptfoo's own list, the ones HoloDeck maps). */
const CELL_TYPES = new Set([
  ...SAME_NAME,
  ...Object.keys(SIMILARITY),
  ...Object.keys(JUDGED),
  'contains-json',
  'rouge-n',
  'similar',
  'latency',
  'cost',
  'is-refusal',
]);
const LIST_TYPES = new Set(['contains-any', 'contains-all', 'icontains-any', 'icontains-all']);

/**
 * One CSV `__expected` cell as an assertion, the way promptfoo reads it: `grade:` / `llm-rubric:`
 * a rubric, `fn:` / `eval:` / `javascript:` an expression, `python:` python, `[not-]type[(n)]:value`
 * a typed assertion (n its threshold; the `-any`/`-all` types split the value at commas), and
 * anything else `equals` the whole text.
 */
export function assertionFromCell(cell: string): PromptfooAssertion {
  const prefixed = /^(grade|llm-rubric|fn|eval|javascript|python):\s*([\s\S]*)$/.exec(cell);
  if (prefixed) {
    const [, kind = '', value = ''] = prefixed;
    const type =
      kind === 'grade' || kind === 'llm-rubric' ? 'llm-rubric' : kind === 'python' ? 'python' : 'javascript';
    return { type, value };
  }
  const typed = /^(not-)?([a-z][a-z-]*)(?:\((\d+(?:\.\d+)?)\))?(?::([\s\S]*))?$/.exec(cell);
  if (typed && CELL_TYPES.has(typed[2] ?? '')) {
    const [, not = '', type = '', threshold, written] = typed;
    const value = written?.trimStart();
    const values =
      value !== undefined && LIST_TYPES.has(type) ? value.split(',').map((item) => item.trim()) : value;
    return {
      type: `${not}${type}`,
      ...(values !== undefined && values !== '' ? { value: values } : {}),
      ...(threshold !== undefined ? { threshold: Number(threshold) } : {}),
    };
  }
  return { type: 'equals', value: cell };
}

/** A promptfoo tests CSV: a header row; `__expected*` assertions, `__description`, the rest vars. */
function testsFromCsv(text: string, file: string, problems: string[]): PromptfooTestEntry[] {
  // Required on first use, as the suite's own CSV reader does.
  const { parse: parseCsv } = createRequire(import.meta.url)(
    'csv-parse/sync',
  ) as typeof import('csv-parse/sync');
  const rows = parseCsv(text, { bom: true, skip_empty_lines: true }) as string[][];
  const [header, ...records] = rows;
  if (!header) return [];
  const ignored = header.filter(
    (column) => column.startsWith('__') && column !== '__description' && !/^__expected\d*$/.test(column),
  );
  for (const column of ignored) problems.push(`${file}: column "${column}"`);
  return records.map((record) => {
    const vars: Record<string, string> = {};
    const assert: PromptfooAssertion[] = [];
    let description: string | undefined;
    header.forEach((column, index) => {
      const cell = record[index] ?? '';
      if (column === '__description') description = cell || undefined;
      else if (/^__expected\d*$/.test(column)) {
        if (cell.trim()) assert.push(assertionFromCell(cell.trim()));
      } else if (!column.startsWith('__')) vars[column] = cell;
    });
    return { ...(description ? { description } : {}), vars, ...(assert.length ? { assert } : {}) };
  });
}

/** The tests of one file by its kind: CSV, JSON (a list), JSONL (one per line) or YAML (a list). */
async function testsOfFile(file: string, shown: string, problems: string[]): Promise<PromptfooTestEntry[]> {
  const text = await readFile(file, 'utf8');
  const extension = path.extname(file).toLowerCase();
  if (extension === '.csv') return testsFromCsv(text, shown, problems);
  const parsed: unknown =
    extension === '.jsonl' || extension === '.ndjson'
      ? text
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line))
      : parse(text);
  const list = Array.isArray(parsed) ? parsed : isRecord(parsed) ? [parsed] : [];
  const tests = list.filter(isRecord);
  if (tests.length < list.length)
    problems.push(`${shown}: ${list.length - tests.length} entries that are not tests`);
  return tests;
}

/**
 * Reads the tests a `file://` reference of promptfoo's `tests` names (a path or a glob, relative
 * to the config's folder). Test generators (.js, .ts, .py) are not run: a problem says so.
 */
export async function readPromptfooTests(reference: string, folder: string): Promise<PromptfooTestFile[]> {
  const relative = reference.slice('file://'.length);
  if (/\.(m?[jt]s|py)(:\w+)?$/.test(relative))
    return [
      { file: relative, tests: [], problems: [`tests "${reference}": a test generator (code is not run)`] },
    ];
  const [match] = await findCaseFiles([path.resolve(folder, relative)]);
  if (!match || match.problem)
    return [
      {
        file: relative,
        tests: [],
        problems: [`tests "${reference}": ${match?.problem?.message ?? 'no file'}`],
      },
    ];
  return Promise.all(
    match.files.map(async (file) => {
      const shown = path.relative(folder, file);
      const problems: string[] = [];
      try {
        return { file: shown, tests: await testsOfFile(file, shown, problems), problems };
      } catch (error) {
        return {
          file: shown,
          tests: [],
          problems: [`tests "${shown}": cannot be read (${errorMessage(error)})`],
        };
      }
    }),
  );
}
