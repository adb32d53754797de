import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  formatFieldPath,
  isRecord,
  locateYamlPath,
  mapZodIssues,
  parseYamlWithPositions,
} from 'yaml-diagnostics';
import type { LoadedAgent } from '../../config/index.js';
import { type MatrixConfig, MatrixSchema } from '../../config/schema/matrix-config-schema.js';
import { substituteEnvVars } from '../../config/substitute-env-vars.js';
import { ConfigError, type ConfigIssue, UsageError } from '../../errors.js';
import type { MatrixSource } from './matrix-variant.js';

/** A matrix and where it is written. */
export interface WrittenMatrix {
  matrix: MatrixConfig;
  source: MatrixSource;
}

/** The label of `--matrix` text in messages: `--matrix:1:12  variants[0].modle: …`. */
export const INLINE_MATRIX = '--matrix';

/**
 * The matrix of a run: `--matrix`'s when given (a YAML/JSON file, or the matrix written inline as
 * YAML, e.g. `--matrix '{temperature: [0, 1]}'`), else agent.yaml's `matrix:`; undefined when
 * neither. A file may hold the block's content or a top-level `matrix:` key. `${VAR}` is
 * substituted from the agent's environment as in agent.yaml. Throws ConfigError (located) for an
 * invalid matrix and UsageError for a file that is not there.
 */
export async function resolveMatrix(agent: LoadedAgent, option?: string): Promise<WrittenMatrix | undefined> {
  if (option === undefined) {
    const matrix = agent.config.matrix;
    if (!matrix) return undefined;
    return {
      matrix,
      source: {
        file: agent.file,
        path: ['matrix'],
        ...(agent.locate ? { locate: agent.locate } : {}),
        directory: agent.directory,
      },
    };
  }
  const given = path.resolve(option);
  const isFile = await stat(given).then(
    (stats) => stats.isFile(),
    () => false,
  );
  const looksLikePath = /\.(ya?ml|json)$/i.test(option) && !/[{}[\]\n]/.test(option);
  if (!isFile && looksLikePath)
    throw new UsageError(
      '--matrix',
      `no file ${given}`,
      'give the path of a matrix file, or the matrix itself as YAML: --matrix "{models: [{name: claude-haiku-4-5}]}"',
    );
  const text = isFile ? await readFile(given, 'utf8') : option;
  const file = isFile ? given : INLINE_MATRIX;
  const directory = isFile ? path.dirname(given) : agent.directory;
  const fail = (issues: ConfigIssue[]): never => {
    throw new ConfigError(issues);
  };
  const parsed = parseYamlWithPositions(text);
  if (!parsed.ok)
    return fail(
      parsed.reason === 'syntax'
        ? parsed.problems.map((problem) => ({ file, path: '', ...problem }))
        : [{ file, ...parsed.position, path: '', message: 'the matrix aliases expand to too many values' }],
    );
  const wrapped = isRecord(parsed.data) && Object.keys(parsed.data).length === 1 && 'matrix' in parsed.data;
  const prefix = wrapped ? ['matrix'] : [];
  const raw = wrapped && isRecord(parsed.data) ? parsed.data.matrix : parsed.data;
  const substituted = substituteEnvVars(raw, agent.env, 'the environment or .env next to agent.yaml');
  const locate = (fieldPath: readonly (string | number)[], anchor?: 'key' | 'value') =>
    locateYamlPath(parsed.document, parsed.lineCounter, fieldPath, anchor);
  const result = MatrixSchema.safeParse(substituted.value);
  const fieldIssues = [
    ...substituted.issues,
    ...parsed.duplicateKeys,
    ...(result.success
      ? []
      : mapZodIssues(result.error.issues, {
          schema: MatrixSchema,
          data: substituted.value,
          substitutedPaths: substituted.substitutedPaths,
          fileLabel: isFile ? 'the matrix file' : '--matrix',
        })),
  ];
  if (fieldIssues.length || !result.success)
    return fail(
      fieldIssues.map((issue) => {
        const fieldPath = [...prefix, ...issue.path];
        const position = issue.position ?? locate(fieldPath, issue.anchor);
        return {
          file,
          line: position.line,
          column: position.column,
          path: formatFieldPath(fieldPath),
          message: issue.message,
          ...(issue.hint ? { hint: issue.hint } : {}),
        };
      }),
    );
  return {
    matrix: result.data,
    source: { file, path: prefix, locate: (fieldPath) => locate(fieldPath), directory },
  };
}
