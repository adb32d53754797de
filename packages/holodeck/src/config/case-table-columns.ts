import type { ConfigIssue } from '../errors.js';
import { suggestionHint } from './did-you-mean.js';

/**
 * The columns of a CSV `test_cases_file`, each turned into a case field. A header row names them;
 * `vars.<name>` and `thresholds.<metric>` columns hold one variable or pass mark each.
 */
type Convert = (cell: string) => unknown;

/** A list cell: a JSON array (`["a", "b"]`), or names separated by commas. */
const list: Convert = (cell) => {
  const trimmed = cell.trim();
  if (trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return trimmed;
    }
  }
  return trimmed
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
};
/** A number cell, kept as text when it is none (the schema then says what is wrong). */
const number: Convert = (cell) => (cell.trim() !== '' && Number.isFinite(Number(cell)) ? Number(cell) : cell);
const text: Convert = (cell) => cell;

const COLUMNS: Record<string, Convert> = {
  name: text,
  input: text,
  ground_truth: text,
  context: (cell) => (cell.trim().startsWith('[') ? list(cell) : [cell]),
  expected_tools: list,
  forbidden_tools: list,
  tags: list,
  repeat: (cell) => (cell.trim() === 'auto' ? 'auto' : number(cell)),
  min_pass_rate: number,
  timeout: number,
  expect_killed: (cell) => (cell.trim() === 'true' ? true : cell.trim() === 'false' ? false : cell),
};

/** The fields a CSV cannot hold: they are lists of mappings. */
const NOT_IN_CSV = ['turns', 'metrics', 'expected_verdicts'];

/** The column names a CSV header may use, for messages. */
export const CASE_COLUMNS = [...Object.keys(COLUMNS), 'vars.<name>', 'thresholds.<metric>'];

/** How one header cell maps onto a case: the field path it fills and how its cells convert. */
export interface CaseColumn {
  header: string;
  path: readonly string[];
  convert: Convert;
}

/** Reads a header row; an unknown column is an issue at its cell (did-you-mean). */
export function caseColumns(
  header: readonly string[],
  where: (column: number) => { file: string; line: number; column: number },
): { columns: (CaseColumn | undefined)[]; issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  const seen = new Set<string>();
  const columns = header.map((raw, index): CaseColumn | undefined => {
    const name = raw.trim();
    const at = where(index + 1);
    const issue = (message: string, hint: string) => {
      issues.push({ ...at, path: `column ${index + 1}`, message, hint });
      return undefined;
    };
    if (seen.has(name)) return issue(`column "${name}" appears twice in the header`, 'keep one of them');
    seen.add(name);
    const nested = /^(vars|thresholds)\.(.+)$/.exec(name);
    if (nested?.[1] && nested[2])
      return {
        header: name,
        path: [nested[1], nested[2]],
        convert: nested[1] === 'thresholds' ? number : text,
      };
    const convert = COLUMNS[name];
    if (convert) return { header: name, path: [name], convert };
    if (NOT_IN_CSV.includes(name))
      return issue(
        `column "${name}" cannot be written in a CSV file: it is a list of mappings`,
        'write these cases in a YAML or JSONL test_cases_file, or set it in default_case',
      );
    return issue(
      `unknown column "${name}"`,
      `${suggestionHint(name, Object.keys(COLUMNS), 'the columns are')}${name.includes('.') ? '' : ` (or vars.${name} for a variable)`}`,
    );
  });
  return { columns, issues };
}
