import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import type { FieldIssue } from './field-issue.js';
import { loadLabelsFile } from './load-labels-file.js';
import { isRecord } from './raw-value.js';

/**
 * Checks the labels file of every judge metric in `evaluations.metrics` that names one
 * (`calibration:`): a problem inside it is reported at its own line and field path
 * (`examples[2].label`) in that file; a folder there at the key of agent.yaml. Works on the raw data.
 */
export async function checkLabelsFiles(
  data: Record<string, unknown>,
  directory: string,
): Promise<FieldIssue[]> {
  const evaluations = data.evaluations;
  const metrics = isRecord(evaluations) && Array.isArray(evaluations.metrics) ? evaluations.metrics : [];
  const issues: FieldIssue[] = [];
  for (const [index, metric] of metrics.entries()) {
    if (!isRecord(metric) || typeof metric.calibration !== 'string' || metric.calibration === '') continue;
    const fieldPath = ['evaluations', 'metrics', index, 'calibration'];
    const file = path.resolve(directory, metric.calibration);
    const found = await stat(file).catch(() => undefined);
    // Not there yet is fine here: `holodeck test add --label` creates it, and `holodeck judge
    // calibrate` (and min_kappa's warning in `holodeck test`) say it is missing.
    if (found === undefined) continue;
    if (!found.isFile()) {
      issues.push({
        path: fieldPath,
        message: `labels file ${file} is not a file`,
        hint: `point calibration at a YAML file with examples:; relative paths start from ${directory}`,
      });
      continue;
    }
    try {
      await loadLabelsFile(file, `evaluations.metrics[${index}]`);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      for (const issue of error.issues)
        issues.push({
          path: issue.path === '' ? [] : [issue.path],
          message: issue.message,
          ...(issue.hint === undefined ? {} : { hint: issue.hint }),
          file: issue.file,
          position: { line: issue.line ?? 1, column: issue.column ?? 1 },
        });
    }
  }
  return issues;
}
