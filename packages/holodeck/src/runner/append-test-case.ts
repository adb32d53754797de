import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isMap, isSeq, parseDocument, type YAMLSeq } from 'yaml';
import type { LoadedAgent } from '../config/index.js';
import { ConfigError } from '../errors.js';
import { validateAgent } from '../load-agent.js';
import { writeAtomically } from '../recording/recording-file.js';

/**
 * Where a new case goes: the `test_cases_file` when it names one YAML file; agent.yaml's
 * `test_cases` otherwise (several files, a glob, or a CSV/JSONL file, which keep no comments).
 */
function targetFile(agent: LoadedAgent): string {
  const setting = agent.config.test_cases_file;
  const file = typeof setting === 'string' ? setting : setting?.length === 1 ? setting[0] : undefined;
  return file && /\.ya?ml$/i.test(file) && !/[*?[\]{}]/.test(file)
    ? path.resolve(agent.directory, file)
    : agent.file;
}

function casesOf(document: ReturnType<typeof parseDocument>): YAMLSeq {
  const contents = document.contents;
  if (isSeq(contents)) return contents;
  if (isMap(contents)) {
    const existing = contents.get('test_cases', true);
    if (isSeq(existing)) return existing;
    const created = document.createNode([]) as YAMLSeq;
    contents.set('test_cases', created);
    return created;
  }
  throw new ConfigError([{ file: document.toString(), path: '', message: 'not a YAML mapping or list' }]);
}

/**
 * Appends `testCase` to the suite, in agent.yaml or its `test_cases_file`, through the yaml
 * Document API so comments and layout stay as they were; then validates the agent. A result that
 * does not validate is put back as it was, and the ConfigError thrown. Returns the file written.
 */
export async function appendTestCase(agent: LoadedAgent, testCase: Record<string, unknown>): Promise<string> {
  const file = targetFile(agent);
  const before = await readFile(file, 'utf8');
  const document = parseDocument(before);
  casesOf(document).add(document.createNode(testCase));
  await writeAtomically(file, document.toString());
  const validation = await validateAgent(agent.file, { env: agent.env });
  if (validation.issues.length) {
    await writeFile(file, before);
    throw new ConfigError(validation.issues);
  }
  return file;
}
