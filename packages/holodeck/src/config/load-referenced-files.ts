import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { type FieldIssue, isRecord, type PathSegment } from 'yaml-diagnostics';
import { checkJsonSchema } from './check-json-schema.js';
import { checkLabelsFiles } from './check-labels-files.js';
import { isNodeError } from './load-env-files.js';
import { renderInstructions } from './render-instructions.js';
import { textProblem } from './text-problem.js';

/** Contents of the files agent.yaml names, and the problems found reading and checking them. */
export interface ReferencedFiles {
  instructions?: string;
  responseFormat?: Record<string, unknown>;
  issues: FieldIssue[];
}

/**
 * Reads and checks every file agent.yaml points at, plus the user JSON Schemas (ajv). Works on the
 * substituted raw data, not the typed config, so these problems are reported even when the schema
 * check failed elsewhere: one run shows everything. Paths are relative to agent.yaml's folder.
 */
export async function loadReferencedFiles(
  data: Record<string, unknown>,
  directory: string,
): Promise<ReferencedFiles> {
  const result: ReferencedFiles = { issues: [] };
  const where = `relative paths start from ${directory}`;

  const instructions = data.instructions;
  if (isRecord(instructions)) {
    if (typeof instructions.inline === 'string') result.instructions = instructions.inline;
    else if (typeof instructions.file === 'string' && instructions.file !== '') {
      const text = await readText(
        instructions.file,
        directory,
        ['instructions', 'file'],
        'instructions file',
        where,
        result.issues,
      );
      if (text !== undefined) result.instructions = text;
    }
    if (result.instructions !== undefined) {
      const vars = isRecord(instructions.vars) ? instructions.vars : {};
      const file =
        typeof instructions.file === 'string' && instructions.inline === undefined
          ? path.resolve(directory, instructions.file)
          : undefined;
      const rendered = renderInstructions(result.instructions, vars, file);
      if ('issue' in rendered) result.issues.push(rendered.issue);
      else result.instructions = rendered.text;
    }
  }

  const responseFormat = data.response_format;
  if (isRecord(responseFormat)) {
    await checkSchema(responseFormat, ['response_format'], undefined, result.issues);
    result.responseFormat = responseFormat;
  } else if (typeof responseFormat === 'string' && /\.(json|ya?ml)$/.test(responseFormat)) {
    const loaded = await readSchemaFile(responseFormat, directory, where, result.issues);
    if (loaded) result.responseFormat = loaded;
  }

  const tools = Array.isArray(data.tools) ? data.tools : [];
  for (const [index, tool] of tools.entries()) {
    if (!isRecord(tool)) continue;
    if (tool.type === 'function') {
      if (typeof tool.file === 'string' && /\.(js|mjs|ts)$/.test(tool.file)) {
        await checkExists(
          tool.file,
          directory,
          ['tools', index, 'file'],
          'file',
          'function tool module',
          where,
          result.issues,
        );
      }
      if (isRecord(tool.parameters))
        await checkSchema(tool.parameters, ['tools', index, 'parameters'], undefined, result.issues);
    }
    if (tool.type === 'mcp' && typeof tool.cwd === 'string' && tool.cwd !== '') {
      await checkExists(
        tool.cwd,
        directory,
        ['tools', index, 'cwd'],
        'directory',
        'cwd',
        where,
        result.issues,
      );
    }
  }

  const claude = data.claude;
  if (isRecord(claude) && typeof claude.working_directory === 'string' && claude.working_directory !== '') {
    const fieldPath = ['claude', 'working_directory'];
    await checkExists(
      claude.working_directory,
      directory,
      fieldPath,
      'directory',
      'working_directory',
      where,
      result.issues,
    );
  }
  result.issues.push(...(await checkLabelsFiles(data, directory)));
  return result;
}

async function checkSchema(
  schema: Record<string, unknown>,
  fieldPath: PathSegment[],
  source: string | undefined,
  issues: FieldIssue[],
): Promise<void> {
  const result = await checkJsonSchema(schema);
  if (result === undefined) return;
  const subject = source === undefined ? 'not a valid JSON Schema' : `${source} is not a valid JSON Schema`;
  issues.push({ path: fieldPath, message: `${subject}: ${result.problem}`, hint: result.hint });
}

async function readText(
  file: string,
  directory: string,
  fieldPath: PathSegment[],
  label: string,
  where: string,
  issues: FieldIssue[],
): Promise<string | undefined> {
  const absolute = path.resolve(directory, file);
  try {
    // A FIFO or a device would block the read (validate hanging): only regular files are read.
    if (!(await stat(absolute)).isFile()) {
      issues.push({
        path: fieldPath,
        message: `${label} ${absolute} is not a regular file`,
        hint: `point it at a text file; ${where}`,
      });
      return undefined;
    }
    return checkTextFile(await readFile(absolute), absolute, label, fieldPath, issues);
  } catch (error) {
    issues.push({ path: fieldPath, ...describeFsError(error, absolute, label, 'file', where) });
    return undefined;
  }
}

/** Above this, an instructions (or schema) file is refused: a system prompt is not a data dump. */
const MAX_TEXT_FILE_BYTES = 1024 * 1024;

/** The text of a file agent.yaml names, when it is non-empty UTF-8 text of a sane size. */
function checkTextFile(
  bytes: Buffer,
  absolute: string,
  label: string,
  fieldPath: PathSegment[],
  issues: FieldIssue[],
): string | undefined {
  const refuse = (message: string, hint: string) => {
    issues.push({ path: fieldPath, message: `${label} ${absolute} ${message}`, hint });
    return undefined;
  };
  if (bytes.length > MAX_TEXT_FILE_BYTES)
    return refuse(
      `is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; at most 1 MB is read`,
      'point it at the text itself; large documents belong in a retrieval tool',
    );
  const problem = textProblem(bytes);
  if (problem) return refuse(problem, 'save it as UTF-8 text');
  const text = bytes.toString('utf8');
  if (text.trim() === '') return refuse('is empty', 'write the text in it, or use inline');
  return text;
}

async function readSchemaFile(
  file: string,
  directory: string,
  where: string,
  issues: FieldIssue[],
): Promise<Record<string, unknown> | undefined> {
  const fieldPath = ['response_format'];
  const text = await readText(file, directory, fieldPath, 'response_format file', where, issues);
  if (text === undefined) return undefined;
  const absolute = path.resolve(directory, file);
  let parsed: unknown;
  try {
    parsed = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    issues.push({
      path: fieldPath,
      message: `cannot parse ${absolute}: ${reason}`,
      hint: 'fix the syntax of that file',
    });
    return undefined;
  }
  if (!isRecord(parsed)) {
    issues.push({
      path: fieldPath,
      message: `${absolute} must hold a JSON Schema object`,
      hint: 'for example {"type": "object", "properties": {...}}',
    });
    return undefined;
  }
  await checkSchema(parsed, fieldPath, absolute, issues);
  return parsed;
}

async function checkExists(
  given: string,
  directory: string,
  fieldPath: PathSegment[],
  kind: 'file' | 'directory',
  label: string,
  where: string,
  issues: FieldIssue[],
): Promise<void> {
  const absolute = path.resolve(directory, given);
  try {
    const stats = await stat(absolute);
    if (kind === 'file' ? stats.isFile() : stats.isDirectory()) return;
    issues.push({
      path: fieldPath,
      message: `${label} ${absolute} is not a ${kind}`,
      hint: `point it at a ${kind}; ${where}`,
    });
  } catch (error) {
    issues.push({ path: fieldPath, ...describeFsError(error, absolute, label, kind, where) });
  }
}

function describeFsError(
  error: unknown,
  absolute: string,
  label: string,
  kind: string,
  where: string,
): { message: string; hint: string } {
  const code = isNodeError(error) ? error.code : undefined;
  if (code === 'ENOENT')
    return {
      message: `${label} not found: ${absolute}`,
      hint: `create the ${kind} or fix the path; ${where}`,
    };
  if (code === 'EISDIR')
    return {
      message: `${label} ${absolute} is a directory, not a file`,
      hint: `point it at a file; ${where}`,
    };
  if (code === 'EACCES')
    return {
      message: `${label} ${absolute} cannot be read (permission denied)`,
      hint: 'fix its permissions',
    };
  return {
    message: `${label} ${absolute} cannot be read (${code ?? String(error)})`,
    hint: 'check that the path is readable',
  };
}
