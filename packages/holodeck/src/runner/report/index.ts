// The output side of `holodeck test`: report formats, the run store, baseline comparison and
// terminal rendering. Explicit export list; internals (escaping, issue wording) stay private.

export { type CaseStatus, caseStatus, STATUS_LABEL } from './case-status.js';
export {
  type CaseChange,
  type CaseComparison,
  type CompareRunsOptions,
  compareRuns,
  type MetricChange,
  type MetricComparison,
  type RunComparison,
} from './compare-runs.js';
export { inferReportFormat, REPORT_FORMATS, type ReportFormat } from './infer-report-format.js';
export { LiveRunSaver } from './live-run-saver.js';
export { PlainProgressReporter } from './plain-progress-reporter.js';
export {
  createProgressReporter,
  type ProgressReporter,
  type ProgressReporterOptions,
  type ProgressStream,
} from './progress-reporter.js';
export { renderComparison } from './render-comparison.js';
export { type RenderSummaryOptions, renderSummary, renderTotals } from './render-summary.js';
export { terminalCapabilities } from './report-style.js';
export {
  type CaseAttempt,
  type CaseReport,
  type GitState,
  RUN_REPORT_SCHEMA_VERSION,
  type RunAgent,
  type RunEnvironment,
  type RunReport,
  type RunSummary,
  type RunVersions,
  type TurnRecord,
} from './run-report.js';
export { RunReportError } from './run-report-error.js';
export { runReportJsonSchema } from './run-report-json-schema.js';
export { parseRunReport, RunReportSchema, validateRunReport } from './run-report-schema.js';
export {
  listRuns,
  loadRun,
  type RunListing,
  runsDirectory,
  type StoredRun,
  saveRun,
  type UnreadableRun,
} from './run-store.js';
export { TtyProgressReporter } from './tty-progress-reporter.js';
export { writeJsonReport } from './write-json-report.js';
export { writeJunitReport } from './write-junit-report.js';
export { writeMarkdownReport } from './write-markdown-report.js';
export { writeReport } from './write-report.js';
