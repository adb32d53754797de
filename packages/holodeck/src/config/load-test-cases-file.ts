import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { type FieldPath, formatFieldPath } from './field-issue.js';
import { loadCsvCases, loadJsonlCases } from './load-case-data-file.js';
import { isNodeError } from './load-env-files.js';
import { locateYamlPath, type YamlPosition } from './locate-yaml-path.js';
import { mapZodIssues } from './map-zod-issues.js';
import { parseAgentYaml } from './parse-agent-yaml.js';
import { type TestCase, TestCaseSchema } from './schema/evaluation-config-schema.js';

/** A `test_cases_file`: a YAML (or JSON) list of test cases, or a mapping with a `test_cases` list (a bare list is read as the latter). */
const TestCasesFileSchema = z.strictObject({ test_cases: z.array(TestCaseSchema) });

/** The test cases of a `test_cases_file`, and where each field of them is in that file. */
export interface TestCasesFile {
  file: string;
  cases: TestCase[];
  /** The field path of the case list as users read it: `test_cases` for a mapping, none for a bare list. */
  listPath: FieldPath;
  /** Line and column of `[index, ...field]` of the case list. */
  locate(path: FieldPath): YamlPosition;
}

/** A bare list is indented under a `test_cases:` line to parse; positions are mapped back. */
const WRAP_INDENT = 2;

/**
 * Loads the test cases of `test_cases_file`, reporting every problem with its line and column like
 * agent.yaml. Throws ConfigError (with all issues) when the file is missing or invalid.
 */
export async function loadTestCasesFile(file: string): Promise<TestCasesFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const missing = isNodeError(error) && error.code === 'ENOENT';
    throw new ConfigError([
      {
        file,
        path: '',
        message: missing
          ? 'test cases file not found'
          : `test cases file cannot be read (${isNodeError(error) ? (error.code ?? error.message) : String(error)})`,
        hint: 'check test_cases_file in agent.yaml (relative paths start from its folder)',
      },
    ]);
  }
  const extension = path.extname(file).toLowerCase();
  if (extension === '.csv') return loadCsvCases(file, text);
  if (extension === '.jsonl' || extension === '.ndjson') return loadJsonlCases(file, text);
  // parseAgentYaml wants a mapping at the root; wrap a bare list so both shapes parse with
  // positions (JSON is YAML: a .json file is read the same way).
  const bare = /^\s*[-[]/m.test(
    text.split('\n').find((line) => line.trim() && !line.trim().startsWith('#')) ?? '',
  );
  const wrapped = bare ? `test_cases:\n${text.replace(/^/gm, ' '.repeat(WRAP_INDENT))}` : text;
  const unwrap = (position: YamlPosition): YamlPosition =>
    bare
      ? { line: Math.max(1, position.line - 1), column: Math.max(1, position.column - WRAP_INDENT) }
      : position;
  const parsed = parseAgentYaml(wrapped);
  if (!parsed.ok) {
    throw new ConfigError(
      parsed.problems.map((problem) => ({
        file,
        path: '',
        ...problem,
        ...unwrap(problem),
        ...(extension === '.json'
          ? { message: problem.message.replace(/^invalid YAML/, 'invalid JSON') }
          : {}),
      })),
    );
  }
  const locate = (path: FieldPath, anchor?: 'key' | 'value') =>
    unwrap(locateYamlPath(parsed.document, parsed.lineCounter, path, anchor));
  const shown = (path: FieldPath) => formatFieldPath(bare ? path.slice(1) : path);
  const result = TestCasesFileSchema.safeParse(parsed.data);
  if (result.success) {
    return {
      file,
      cases: result.data.test_cases,
      listPath: bare ? [] : ['test_cases'],
      locate: (path) => locate(['test_cases', ...path]),
    };
  }
  const fieldIssues = mapZodIssues(result.error.issues, {
    schema: TestCasesFileSchema,
    data: parsed.data,
    substitutedPaths: new Set(),
  });
  const issues: ConfigIssue[] = fieldIssues.map((issue) => ({
    file,
    ...locate(issue.path, issue.anchor),
    path: shown(issue.path),
    message: issue.message,
    ...(issue.hint === undefined ? {} : { hint: issue.hint }),
  }));
  throw new ConfigError(issues);
}
