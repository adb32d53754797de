import type { ComparePayload, Found, RunPayload, ViewDataSource } from '../pages/view-data-source.js';
import type { ViewRunHeader, ViewRunList, ViewStaticData } from '../view-data.js';
import type { ViewLabelling } from '../view-labelling.js';
import type { ViewOptimization } from '../view-optimization.js';

function listEntry(run: ViewRunHeader, older: ViewRunHeader | undefined) {
  const differs = (pick: (header: ViewRunHeader) => string | null | undefined) =>
    older !== undefined && pick(run) != null && pick(older) != null && pick(run) !== pick(older);
  return {
    ...run,
    config_changed: differs((header) => header.agent.config_hash),
    instructions_changed: differs((header) => header.agent.instructions_hash),
    suite_changed: differs((header) => header.agent.suite_hash),
  };
}

/** Data inlined in a static report file: its run, and the comparison with its baseline. */
export class StaticSource implements ViewDataSource {
  constructor(private readonly data: ViewStaticData) {}

  async runList(): Promise<ViewRunList> {
    const { run, comparison } = this.data;
    const baseline = comparison?.baseline;
    const runs = baseline
      ? [listEntry(run, baseline), listEntry(baseline, undefined)]
      : [listEntry(run, undefined)];
    return { runs, unreadable: [] };
  }

  async run(runId: string): Promise<Found<RunPayload>> {
    const { run, comparison } = this.data;
    if (runId !== run.run_id) {
      const other =
        comparison?.baseline.run_id === runId ? " (only the baseline's totals are in this file)" : '';
      return { found: false, message: `This report holds run ${run.run_id}, not ${runId}${other}.` };
    }
    return { found: true, value: { run, previous_run_id: comparison?.baseline.run_id ?? null } };
  }

  async compare(currentId: string, baselineId: string | null): Promise<Found<ComparePayload>> {
    const { comparison } = this.data;
    if (
      !comparison ||
      currentId !== comparison.current.run_id ||
      (baselineId !== null && baselineId !== comparison.baseline.run_id)
    )
      return {
        found: false,
        message:
          'This report holds no such comparison: write it with `holodeck test --baseline <run> --output report.html`.',
      };
    return { found: true, value: { comparison, choices: [] } };
  }

  /** A report file has no server to write to. */
  async labelling(): Promise<ViewLabelling> {
    return { writable: false };
  }

  async optimization(optimizeId: string): Promise<Found<ViewOptimization>> {
    return {
      found: false,
      message: `A report file holds one run, not optimization ${optimizeId}: see it with holodeck test view.`,
    };
  }
}
