import { caseStatus } from './case-status.js';
import { formatDuration } from './format-units.js';
import { formatFinishedCase } from './plain-progress-reporter.js';
import type { ProgressReporter, ProgressReporterOptions, ProgressStream } from './progress-reporter.js';
import { createReportStyle, type ReportStyle } from './report-style.js';
import type { CaseReport } from './run-report.js';

/** Carriage return + "erase entire line": the status line is redrawn in place. */
const CLEAR_LINE = '\r\u001b[2K';

/**
 * A live status line for terminals: `3/10 done · 2 passed · 1 failed · 0 errored · 4.2 s · running
 * refund-policy`, redrawn with `\r` at most every `throttleMs`. Failed and errored cases are also
 * printed above it as permanent lines, so they stay visible when the run ends.
 */
export class TtyProgressReporter implements ProgressReporter {
  private readonly stream: ProgressStream;
  private readonly style: ReportStyle;
  private readonly throttleMs: number;
  private readonly tickMs: number;
  private readonly now: () => number;
  private total = 0;
  private counts = { done: 0, pass: 0, fail: 0, error: 0, stopped: 0 };
  private running: string[] = [];
  private startedAt = 0;
  private lastDrawAt = Number.NEGATIVE_INFINITY;
  private pendingDraw: NodeJS.Timeout | undefined;
  private ticker: NodeJS.Timeout | undefined;

  constructor(options: ProgressReporterOptions) {
    this.stream = options.stream;
    this.style = createReportStyle(options.color);
    this.throttleMs = options.throttleMs ?? 100;
    this.tickMs = options.tickMs ?? 1000;
    this.now = options.now ?? Date.now;
  }

  start(total: number): void {
    this.total = total;
    this.startedAt = this.now();
    if (this.tickMs > 0) {
      this.ticker = setInterval(() => this.draw(), this.tickMs);
      this.ticker.unref();
    }
    this.draw();
  }

  caseStarted(name: string): void {
    this.running.push(name);
    this.requestDraw();
  }

  caseFinished(caseReport: CaseReport): void {
    const index = this.running.indexOf(caseReport.name);
    if (index >= 0) this.running.splice(index, 1);
    const status = caseStatus(caseReport);
    this.counts.done += 1;
    this.counts[status] += 1;
    if (status === 'pass') {
      this.requestDraw();
      return;
    }
    // A permanent line replaces the status line, which is drawn again below it.
    this.stream.write(`${CLEAR_LINE}${formatFinishedCase(caseReport, this.style)}\n`);
    this.draw();
  }

  finish(): void {
    clearInterval(this.ticker);
    clearTimeout(this.pendingDraw);
    this.ticker = undefined;
    this.pendingDraw = undefined;
    this.stream.write(CLEAR_LINE);
  }

  private requestDraw(): void {
    const wait = this.lastDrawAt + this.throttleMs - this.now();
    if (wait <= 0) {
      this.draw();
      return;
    }
    if (this.pendingDraw) return;
    this.pendingDraw = setTimeout(() => this.draw(), wait);
    this.pendingDraw.unref();
  }

  private draw(): void {
    clearTimeout(this.pendingDraw);
    this.pendingDraw = undefined;
    this.lastDrawAt = this.now();
    this.stream.write(`${CLEAR_LINE}${this.statusLine()}`);
  }

  private statusLine(): string {
    const { done, pass, fail, error } = this.counts;
    const elapsed = formatDuration(this.now() - this.startedAt);
    const plain = `${done}/${this.total} done · ${pass} passed · ${fail} failed · ${error} errored · ${elapsed}`;
    const width = (this.stream.columns ?? 80) - 1;
    const passed = this.style.green(`${pass} passed`);
    const failed = fail > 0 ? this.style.red(`${fail} failed`) : `${fail} failed`;
    const errored = error > 0 ? this.style.yellow(`${error} errored`) : `${error} errored`;
    let line = `${done}/${this.total} done · ${passed} · ${failed} · ${errored} · ${this.style.dim(elapsed)}`;
    if (plain.length > width) return plain.slice(0, Math.max(0, width));
    const current = this.running.at(-1);
    if (current !== undefined) {
      const more = this.running.length > 1 ? ` +${this.running.length - 1}` : '';
      const room = width - plain.length - ' · running '.length - more.length;
      if (room >= 4) {
        const name = current.length > room ? `${current.slice(0, room - 1)}…` : current;
        line += ` · running ${name}${more}`;
      }
    }
    return line;
  }
}
