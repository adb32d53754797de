import { describeReportIssue } from './describe-report-issue.js';
import type { RunReport } from './run-report.js';
import { RunReportSchema } from './run-report-schema.js';

/**
 * The JSON report: two-space indented, keys in schema order (then any extra keys), newline at
 * the end. Validates on the way out: a report that would not load back is a bug, not a file.
 */
export function writeJsonReport(report: RunReport): string {
  const result = RunReportSchema.safeParse(report);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => describeReportIssue(issue, report)).join('; ');
    throw new Error(`Internal error (this is a bug): the run report does not match its schema: ${problems}`);
  }
  return `${JSON.stringify(result.data, null, 2)}\n`;
}
