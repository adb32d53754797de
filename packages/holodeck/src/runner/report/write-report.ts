import type { RunComparison } from './compare-runs.js';
import { comparisonJson } from './comparison-json.js';
import type { ReportFormat } from './infer-report-format.js';
import type { RunReport } from './run-report.js';
import { writeJsonReport } from './write-json-report.js';
import { writeJunitReport } from './write-junit-report.js';
import { writeMarkdownReport } from './write-markdown-report.js';

/**
 * Writes a report in the given format; the Markdown one includes the comparison when given. The
 * HTML page is written by `writeHtmlReport` (src/view/), which reads reports rather than being one.
 */
export function writeReport(
  report: RunReport,
  format: Exclude<ReportFormat, 'html'>,
  comparison?: RunComparison,
): string {
  switch (format) {
    case 'json':
      return writeJsonReport(comparison ? { ...report, comparison: comparisonJson(comparison) } : report);
    case 'junit':
      return writeJunitReport(report);
    case 'markdown':
      return writeMarkdownReport(report, comparison);
  }
}
