import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { formatFieldPath } from './field-issue.js';
import { locateYamlPath } from './locate-yaml-path.js';
import { mapZodIssues } from './map-zod-issues.js';
import { parseAgentYaml } from './parse-agent-yaml.js';
import { type TestCase, TestCaseSchema } from './schema/evaluation-config-schema.js';

/** A `test_cases_file`: a YAML list of test cases, or a mapping with a `test_cases` list (a bare list is read as the latter). */
const TestCasesFileSchema = z.strictObject({ test_cases: z.array(TestCaseSchema) });

/**
 * Loads the test cases of `test_cases_file`, reporting every problem with its line like agent.yaml.
 * Throws ConfigError (with all issues) when the file is missing or invalid.
 */
export async function loadTestCasesFile(file: string): Promise<TestCase[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError([
      {
        file,
        path: '',
        message: `test cases file cannot be read (${String(error)})`,
        hint: 'check test_cases_file in agent.yaml',
      },
    ]);
  }
  // parseAgentYaml wants a mapping at the root; wrap a bare list so both shapes parse with positions.
  const wrapped = /^\s*-/m.test(
    text.split('\n').find((line) => line.trim() && !line.trim().startsWith('#')) ?? '',
  )
    ? `test_cases:\n${text.replace(/^/gm, '  ')}`
    : text;
  const lineShift = wrapped === text ? 0 : 1;
  const parsed = parseAgentYaml(wrapped);
  if (!parsed.ok) {
    throw new ConfigError(
      parsed.problems.map((problem) => ({ file, path: '', ...problem, line: problem.line - lineShift })),
    );
  }
  const result = TestCasesFileSchema.safeParse(parsed.data);
  if (result.success) return result.data.test_cases;
  const fieldIssues = mapZodIssues(result.error.issues, {
    schema: TestCasesFileSchema,
    data: parsed.data,
    substitutedPaths: new Set(),
  });
  const issues: ConfigIssue[] = fieldIssues.map((issue) => {
    const position = locateYamlPath(parsed.document, parsed.lineCounter, issue.path, issue.anchor);
    return {
      file,
      line: position.line - lineShift,
      column: position.column,
      path: formatFieldPath(issue.path),
      message: issue.message,
      ...(issue.hint === undefined ? {} : { hint: issue.hint }),
    };
  });
  throw new ConfigError(issues);
}
