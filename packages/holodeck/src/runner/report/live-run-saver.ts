import type { RunReport } from './run-report.js';
import { saveRun } from './run-store.js';

/**
 * Saves a run's record while it runs, so `holodeck test view` can follow it: each `update()`
 * schedules a write of the newest record, at most one per `intervalMs` and one at a time (every
 * write is atomic, see saveRun). `finish()` waits for the write under way and saves the final
 * record over it. A failed progress write is reported once and ends progress writes; the
 * final save still happens and its failure is the caller's.
 */
export class LiveRunSaver {
  private pending: RunReport | undefined;
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private lastWrite = 0;
  private stopped = false;

  constructor(
    private readonly dir: string,
    private readonly options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
  ) {}

  update(report: RunReport): void {
    if (this.stopped) return;
    this.pending = report;
    if (this.timer) return;
    const wait = Math.max(0, this.lastWrite + (this.options.intervalMs ?? 500) - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writing = this.writing.then(() => this.writePending());
    }, wait);
    this.timer.unref();
  }

  async finish(report: RunReport): Promise<string> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
    await this.writing;
    return saveRun(report, this.dir);
  }

  private async writePending(): Promise<void> {
    const report = this.pending;
    this.pending = undefined;
    if (!report || this.stopped) return;
    try {
      await saveRun(report, this.dir);
      this.lastWrite = Date.now();
    } catch (error) {
      this.stopped = true;
      this.options.onError?.(error);
    }
  }
}
