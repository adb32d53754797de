import type { IngestReport } from './ingest/ingest-collection.js';

/** The lines a user must see about an ingest: failed files (by name, with the reason), unsupported ones, a rebuild. */
export function describeIngestProblems(report: IngestReport): string[] {
  const lines: string[] = [];
  if (report.rebuilt) lines.push(`tool ${report.tool}: rebuilt its index because of ${report.rebuilt}`);
  for (const failure of report.failures) {
    lines.push(`tool ${report.tool}: cannot index ${failure.file}: ${failure.reason}`);
  }
  if (report.unsupported.length) {
    lines.push(`tool ${report.tool}: skipped unsupported files: ${report.unsupported.join(', ')}`);
  }
  return lines;
}

/** One line summing up an ingest, e.g. `handbook: 4 files (1 indexed, 3 unchanged, 0 removed), 12 chunks, 3 embedded`. */
export function describeIngestSummary(report: IngestReport): string {
  const failed = report.failures.length ? `, ${report.failures.length} failed` : '';
  return `${report.tool}: ${report.files} file${report.files === 1 ? '' : 's'} (${report.indexed} indexed, ${report.unchanged} unchanged, ${report.removed} removed${failed}), ${report.chunks} chunks, ${report.embedded} embedded → ${report.location}`;
}
