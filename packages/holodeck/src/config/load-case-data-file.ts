import { createRequire } from 'node:module';
import path from 'node:path';
import {
  type FieldPath,
  formatFieldPath,
  locateYamlPath,
  mapZodIssues,
  type YamlPosition,
} from 'yaml-diagnostics';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { errorMessage } from '../support.js';
import { caseColumns } from './case-table-columns.js';
import type { TestCasesFile } from './load-test-cases-file.js';
import { parseAgentYaml } from './parse-agent-yaml.js';
import { type TestCase, TestCaseSchema } from './schema/evaluation-config-schema.js';

/** One case read from a row or line, with where each of its fields is. */
interface CaseRow {
  data: Record<string, unknown>;
  locate: (path: FieldPath) => YamlPosition;
}

/** Validates every row as a test case; all problems are reported, each at its row and column. */
function validateRows(file: string, rows: (CaseRow | undefined)[], issues: ConfigIssue[]): TestCasesFile {
  const cases: TestCase[] = [];
  for (const [index, row] of rows.entries()) {
    // A row that did not parse is reported already.
    if (!row) continue;
    const result = TestCaseSchema.safeParse(row.data);
    if (result.success) {
      cases.push(result.data);
      continue;
    }
    for (const issue of mapZodIssues(result.error.issues, {
      schema: TestCaseSchema,
      data: row.data,
      substitutedPaths: new Set(),
    }))
      issues.push({
        file,
        ...row.locate(issue.path),
        path: formatFieldPath([index, ...issue.path]),
        // The row is validated alone: its own top level is case [index] of the file.
        message: issue.message.replace(/ at the top level$/, ` in [${index}]`),
        ...(issue.hint === undefined ? {} : { hint: issue.hint }),
      });
  }
  if (issues.length) throw new ConfigError(issues);
  return {
    file,
    cases,
    listPath: [],
    locate: ([index, ...field]) =>
      rows[typeof index === 'number' ? index : 0]?.locate(field) ?? { line: 1, column: 1 },
  };
}

/**
 * A JSONL file: one test case per line, a JSON object as in a YAML test_cases list. Each line is
 * parsed as YAML flow (JSON is YAML), so every problem has its line and column.
 */
export function loadJsonlCases(file: string, text: string): TestCasesFile {
  const issues: ConfigIssue[] = [];
  const rows: (CaseRow | undefined)[] = [];
  for (const [offset, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const lineNumber = offset + 1;
    const shift = (position: YamlPosition): YamlPosition => ({ ...position, line: lineNumber });
    const parsed = line.trim().startsWith('{') ? parseAgentYaml(line) : undefined;
    if (!parsed?.ok) {
      issues.push(
        ...(parsed && !parsed.ok
          ? parsed.problems.map((problem) => ({
              file,
              path: `[${rows.length}]`,
              ...problem,
              ...shift(problem),
              message: problem.message.replace('invalid YAML', 'invalid JSON'),
              hint: 'each line of a JSONL file is one JSON object: check its quotes, commas and braces',
            }))
          : [
              {
                file,
                line: lineNumber,
                column: line.search(/\S/) + 1,
                path: `[${rows.length}]`,
                message: 'a line of a JSONL file must be a JSON object (one test case)',
                hint: 'write one {"name": ..., "input": ...} per line',
              },
            ]),
      );
      rows.push(undefined);
      continue;
    }
    const { document, lineCounter, data } = parsed;
    rows.push({
      data,
      locate: (fieldPath) => shift(locateYamlPath(document, lineCounter, fieldPath)),
    });
  }
  return validateRows(file, rows, issues);
}

/** Sets `value` at `fieldPath` in `target`, creating the mappings on the way. */
function setPath(target: Record<string, unknown>, fieldPath: readonly string[], value: unknown): void {
  let node = target;
  for (const key of fieldPath.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[fieldPath.at(-1) ?? ''] = value;
}

/** A CSV row as csv-parse gives it: its cells, its raw text, and the line it ends on. */
interface CsvRecord {
  record: string[];
  raw: string;
  info: { lines: number };
}

/** The rows of a CSV file; a file csv-parse cannot read is a ConfigError at the line it names. */
function parseCsvRecords(file: string, text: string): CsvRecord[] {
  // Required on first use: a chat or a suite without a CSV file never loads the parser.
  const { parse: parseCsv } = createRequire(import.meta.url)(
    'csv-parse/sync',
  ) as typeof import('csv-parse/sync');
  let records: CsvRecord[];
  try {
    records = parseCsv(text, {
      bom: true,
      info: true,
      raw: true,
      skip_empty_lines: true,
    }) as unknown as typeof records;
  } catch (error) {
    const line =
      typeof (error as { lines?: unknown }).lines === 'number' ? (error as { lines: number }).lines : 1;
    throw new ConfigError([
      {
        file,
        line,
        column: 1,
        path: '',
        message: `invalid CSV: ${errorMessage(error).replace(/ (at|on) line \d+/, '')}`,
        hint: 'every row has as many cells as the header; quote a cell holding a comma, quote or line break ("a, b")',
      },
    ]);
  }
  return records;
}

/**
 * A CSV file: a header row naming the columns (see case-table-columns), then one case per row.
 * An empty cell leaves its field unset. A case without a name is named by its file and row
 * (`cases.csv row 3`). Positions are line:column, the column counted in cells.
 */
export function loadCsvCases(file: string, text: string): TestCasesFile {
  const records = parseCsvRecords(file, text);
  const [header, ...body] = records;
  if (!header)
    throw new ConfigError([
      {
        file,
        line: 1,
        column: 1,
        path: '',
        message: 'the CSV file is empty',
        hint: 'write a header row (name,input,ground_truth,...) and one row per test case',
      },
    ]);
  const startLine = (entry: { raw: string; info: { lines: number } }) =>
    entry.info.lines -
    (entry.raw
      .replace(/^(\r?\n)+/, '')
      .replace(/\r?\n$/, '')
      .match(/\n/g)?.length ?? 0);
  const headerLine = startLine(header);
  const { columns, issues } = caseColumns(header.record, (column) => ({ file, line: headerLine, column }));
  if (!columns.some((column) => column?.header === 'input'))
    issues.push({
      file,
      line: headerLine,
      column: 1,
      path: '',
      message: 'the CSV header has no "input" column',
      hint: 'name the column of the user messages input (a conversation needs a YAML or JSONL file)',
    });
  if (issues.length) throw new ConfigError(issues);
  const base = path.basename(file);
  const rows: CaseRow[] = body.map((entry) => {
    const line = startLine(entry);
    const data: Record<string, unknown> = {};
    const cellOf = new Map<string, number>();
    for (const [index, cell] of entry.record.entries()) {
      const column = columns[index];
      if (!column || cell === '') continue;
      setPath(data, column.path, column.convert(cell));
      cellOf.set(column.path[0] ?? '', index + 1);
      cellOf.set(column.path.join('.'), index + 1);
    }
    if (data.name === undefined) data.name = `${base} row ${line}`;
    return {
      data,
      locate: (fieldPath) => {
        const named = fieldPath.filter((segment) => typeof segment === 'string').join('.');
        const column = cellOf.get(named) ?? cellOf.get(String(fieldPath[0] ?? '')) ?? 1;
        return { line, column };
      },
    };
  });
  return validateRows(file, rows, []);
}
