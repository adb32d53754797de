import { type CatalogEntry, isRunId, type RunCatalog } from './run-catalog.js';
import type { RunChangeFeed } from './run-change-feed.js';

/** What the view's routes ask of the runs folder: is a run there, which run came before it. */
export class KnownRuns {
  readonly catalog: RunCatalog;
  readonly #feed: RunChangeFeed;

  constructor(catalog: RunCatalog, feed: RunChangeFeed) {
    this.catalog = catalog;
    this.#feed = feed;
  }

  /** Whether `runId` is a saved run, after reading the folder again. */
  async has(runId: string): Promise<boolean> {
    if (!isRunId(runId)) return false;
    await this.#feed.refresh();
    return this.catalog.list().some((entry) => entry.runId === runId);
  }

  /** The finished run of the same agent file before `entry`, or undefined. */
  previousOf(entry: CatalogEntry): CatalogEntry | undefined {
    const runs = this.catalog.list();
    return runs
      .slice(runs.findIndex((run) => run.runId === entry.runId) + 1)
      .find((older) => older.agentFile === entry.agentFile && older.header.planned_cases === null);
  }
}

/** What a page or the API says about a run id it cannot find. */
export function notFoundMessage(runId: string): string {
  return isRunId(runId)
    ? `No saved run has the id "${runId}". The runs page lists every run in this folder.`
    : `"${runId}" is not a run id: run ids hold only letters, digits, ".", "_" and "-".`;
}
