import { PlainProgressReporter } from './plain-progress-reporter.js';
import type { CaseReport, RunSummary } from './run-report.js';
import { TtyProgressReporter } from './tty-progress-reporter.js';

/** Receives the runner's progress; `holodeck test` draws it on stderr. */
export interface ProgressReporter {
  /** The run begins with `total` cases. */
  start(total: number): void;
  caseStarted(name: string): void;
  caseFinished(caseReport: CaseReport): void;
  /** The run ended; stops timers and leaves the terminal clean for the summary. */
  finish(summary?: RunSummary): void;
}

/** Where progress goes: a subset of NodeJS.WriteStream, so tests can pass a collector. */
export interface ProgressStream {
  write(text: string): unknown;
  /** Terminal width; the TTY status line is cut to fit so `\r` redraws never wrap. */
  columns?: number;
}

/** How to report progress; the caller decides `interactive` and `color` (see terminalCapabilities). */
export interface ProgressReporterOptions {
  stream: ProgressStream;
  /** A live status line redrawn in place (TTY) instead of one line per finished case. */
  interactive: boolean;
  /** ANSI colours. */
  color: boolean;
  /** Minimum milliseconds between two redraws of the status line. Default 100. */
  throttleMs?: number;
  /** Redraw period that keeps the elapsed time moving; 0 turns it off. Default 1000. */
  tickMs?: number;
  /** Clock in milliseconds (tests pass a fake one). Default Date.now. */
  now?: () => number;
}

/** The TTY reporter when `interactive`, the plain one otherwise. */
export function createProgressReporter(options: ProgressReporterOptions): ProgressReporter {
  return options.interactive ? new TtyProgressReporter(options) : new PlainProgressReporter(options);
}
