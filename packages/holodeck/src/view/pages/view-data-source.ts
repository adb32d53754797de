import type { ViewComparison, ViewRun, ViewRunList } from '../view-data.js';
import type { ViewLabelling } from '../view-labelling.js';
import type { ViewOptimization } from '../view-optimization.js';
import type { RunChoice } from './render-compare-page.js';

/** A run and the run before it (of the same agent), as the run page needs them. */
export interface RunPayload {
  run: ViewRun;
  previous_run_id: string | null;
}

/** A comparison and the runs one may pick instead. */
export interface ComparePayload {
  comparison: ViewComparison;
  choices: RunChoice[];
}

/** An answer, or why there is none (an unknown id: the page says it). */
export type Found<T> = { found: true; value: T } | { found: false; message: string };

/** Where pages get their data: the view server's /api/, or the data inlined in a report file. */
export interface ViewDataSource {
  runList(): Promise<ViewRunList>;
  run(runId: string): Promise<Found<RunPayload>>;
  compare(currentId: string, baselineId: string | null): Promise<Found<ComparePayload>>;
  /** A `holodeck test optimize` run (its trials.jsonl); served pages only. */
  optimization(optimizeId: string): Promise<Found<ViewOptimization>>;
  /** Whether the case page may write calibration labels (`holodeck test view --writable`). */
  labelling(): Promise<ViewLabelling>;
}
