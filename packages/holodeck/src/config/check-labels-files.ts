import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import type { FieldIssue } from './field-issue.js';
import { loadLabelsFile } from './load-labels-file.js';
import { isRecord } from './raw-value.js';

/**
 * Checks the labels file of every judge metric in `evaluations.metrics` that names one
 * (`calibration:`): a missing file is reported at that key of agent.yaml; a problem inside it at
 * its own line and field path (`examples[2].label`) in that file. Works on the raw data.
 */
export async function checkLabelsFiles(data: Record<string, unknown>, directory: string): Promise<FieldIssue[]> {
  const evaluations = data.evaluations;
  const metrics = isRecord(evaluations) && Array.isArray(evaluations.metrics) ? evaluations.metrics : [];
  const issues: FieldIssue[] = [];
  for (const [index, metric] of metrics.entries()) {
    if (!isRecord(metric) || typeof metric.calibration !== 'string' || metric.calibration === '') continue;
    const fieldPath = ['evaluations', 'metrics', index, 'calibration'];
    const file = path.resolve(directory, metric.calibration);
    const found = await stat(file).catch(() => undefined);
    if (!found?.isFile()) {
      issues.push({
        path: fieldPath,
        message: `labels file ${file} ${found ? 'is not a file' : 'not found'}`,
        hint: `create it with examples: [{input, output, label: pass | fail}] (holodeck test add --label writes them from a run); relative paths start from ${directory}`,
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
