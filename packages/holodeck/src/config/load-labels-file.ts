import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { formatFieldPath } from './field-issue.js';
import { isNodeError } from './load-env-files.js';
import { locateYamlPath } from './locate-yaml-path.js';
import { mapZodIssues } from './map-zod-issues.js';
import { parseAgentYaml } from './parse-agent-yaml.js';
import { type LabelledExample, LabelsFileSchema } from './schema/labels-file-schema.js';

/** A labels file, read and checked: its examples, the line of each, and a hash of its text. */
export interface LabelsFile {
  file: string;
  examples: LabelledExample[];
  /** 1-based line of each example, same order. */
  lines: number[];
  /** `sha256:<hex>` of the file's text: a calibration of other labels is stale. */
  hash: string;
}

/**
 * Reads a judge metric's `calibration:` file. Every problem is reported with its file, line and
 * field path (`examples[2].label`), as agent.yaml's are; `metricPath` names the metric that points
 * at the file, for the hint of a missing one. Throws ConfigError.
 */
export async function loadLabelsFile(file: string, metricPath: string): Promise<LabelsFile> {
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
          ? 'labels file not found'
          : `labels file cannot be read (${isNodeError(error) ? (error.code ?? error.message) : String(error)})`,
        hint: missing
          ? `create it with examples: [...] (or label a run's case with holodeck test add --label), or fix ${metricPath}.calibration in agent.yaml (relative to its folder)`
          : `check the permissions of the file ${metricPath}.calibration names`,
      },
    ]);
  }
  const hash = `sha256:${createHash('sha256').update(text).digest('hex')}`;
  const parsed = parseAgentYaml(text.trim() === '' ? '{}' : text);
  if (!parsed.ok) throw new ConfigError(parsed.problems.map((problem) => ({ file, path: '', ...problem })));
  const issues: ConfigIssue[] = parsed.duplicateKeys.map((issue) => ({
    file,
    ...(issue.position ?? locateYamlPath(parsed.document, parsed.lineCounter, issue.path, 'key')),
    path: formatFieldPath(issue.path),
    message: issue.message,
    ...(issue.hint === undefined ? {} : { hint: issue.hint }),
  }));
  const result = LabelsFileSchema.safeParse(parsed.data);
  if (!result.success) {
    const fieldIssues = mapZodIssues(result.error.issues, {
      schema: LabelsFileSchema,
      data: parsed.data,
      substitutedPaths: new Set(),
    });
    for (const issue of fieldIssues)
      issues.push({
        file,
        ...locateYamlPath(parsed.document, parsed.lineCounter, issue.path, issue.anchor),
        path: formatFieldPath(issue.path),
        message: issue.message,
        ...(issue.hint === undefined ? {} : { hint: issue.hint }),
      });
  }
  if (issues.length > 0 || !result.success) throw new ConfigError(issues);
  const examples = result.data.examples;
  if (examples.length === 0)
    throw new ConfigError([
      {
        file,
        ...locateYamlPath(parsed.document, parsed.lineCounter, ['examples']),
        path: 'examples',
        message: 'the labels file has no examples',
        hint: 'add examples with input, output and label: pass | fail (holodeck test add --label writes them from a run)',
      },
    ]);
  const lines = examples.map(
    (_, index) => locateYamlPath(parsed.document, parsed.lineCounter, ['examples', index]).line,
  );
  return { file, examples, lines, hash };
}
