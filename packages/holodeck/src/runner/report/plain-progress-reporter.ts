import {
  caseDuration,
  caseStatus,
  describeCaseProblem,
  describeRepeats,
  STATUS_LABEL,
} from './case-status.js';
import { formatDuration } from './format-units.js';
import type { ProgressReporter, ProgressStream } from './progress-reporter.js';
import { createReportStyle, type ReportStyle } from './report-style.js';
import type { CaseReport } from './run-report.js';

/**
 * One line per finished case, for logs and pipes: `PASS  refund-policy  (1.2 s)` (with the
 * attempts, pass@k, pass^k and a flaky mark for a repeated case),
 * `FAIL  name: metric bleu 0.41 < 0.6`, `ERROR name: <reason>`.
 */
export class PlainProgressReporter implements ProgressReporter {
  private readonly stream: ProgressStream;
  private readonly style: ReportStyle;

  constructor(options: { stream: ProgressStream; color: boolean }) {
    this.stream = options.stream;
    this.style = createReportStyle(options.color);
  }

  start(): void {}

  caseStarted(): void {}

  caseFinished(caseReport: CaseReport): void {
    this.stream.write(`${formatFinishedCase(caseReport, this.style)}\n`);
  }

  finish(): void {}
}

/** The one-line outcome of a case, as the plain reporter prints it (and the TTY one for failures). */
export function formatFinishedCase(caseReport: CaseReport, style: ReportStyle): string {
  const status = caseStatus(caseReport);
  const label = style.status(status, STATUS_LABEL[status].padEnd(5));
  if (status === 'pass') {
    const repeats = describeRepeats(caseReport);
    return `${label} ${caseReport.name}  (${formatDuration(caseDuration(caseReport))})${repeats ? `  ${repeats}` : ''}`;
  }
  return `${label} ${caseReport.name}: ${describeCaseProblem(caseReport, status === 'fail' ? 'metric ' : '')}`;
}
