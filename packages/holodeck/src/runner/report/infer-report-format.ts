import { extname } from 'node:path';
import { RunReportError } from './run-report-error.js';

/** The report formats `holodeck test --output` writes (html: the self-contained page of src/view/). */
export const REPORT_FORMATS = ['json', 'junit', 'markdown', 'html'] as const;

/** One of REPORT_FORMATS. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];

const BY_EXTENSION: Record<string, ReportFormat> = {
  '.json': 'json',
  '.xml': 'junit',
  '.md': 'markdown',
  '.html': 'html',
  '.htm': 'html',
};

/** The format for an output path from its extension: `.json`, `.xml` (JUnit), `.md` (Markdown), `.html`. */
export function inferReportFormat(path: string): ReportFormat {
  const extension = extname(path).toLowerCase();
  const format = BY_EXTENSION[extension];
  if (format) return format;
  const what = extension === '' ? 'has no extension' : `ends in "${extension}"`;
  throw new RunReportError(
    path,
    `Cannot tell the report format of ${path}: it ${what}. Use .json, .xml (JUnit), .md (Markdown) or .html, or pass --format json|junit|markdown|html.`,
  );
}
