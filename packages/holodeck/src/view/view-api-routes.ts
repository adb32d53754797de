import path from 'node:path';
import type { Hono } from 'hono';
import { latestCalibrations } from '../runner/calibration/latest-calibrations.js';
import { compareRuns } from '../runner/report/index.js';
import { toRunList, toViewComparison, toViewRun } from './build-view-data.js';
import { type KnownRuns, notFoundMessage } from './known-runs.js';
import type { ComparePayload, RunPayload } from './pages/view-data-source.js';
import type { RunChangeFeed } from './run-change-feed.js';
import type { ViewRunList } from './view-data.js';
import { optimizationReader } from './view-optimization-routes.js';

/** The JSON the pages read (`/api/runs`, a run, a comparison) and the live-update stream. */
export function addViewApiRoutes(app: Hono, runs: KnownRuns, feed: RunChangeFeed, runsDir: string): void {
  const { catalog } = runs;
  const optimizations = optimizationReader(runsDir);
  app.get('/api/runs', async (c) => {
    await feed.refresh();
    // The calibrations folder is the runs folder's sibling (`.holodeck/calibrations`).
    const calibrations = await latestCalibrations(path.join(path.dirname(runsDir), 'calibrations')).catch(
      () => [],
    );
    const optimized = await optimizations.summaries();
    const list: ViewRunList = {
      runs: toRunList(catalog.list()),
      unreadable: catalog.unreadableFiles(),
      ...(calibrations.length ? { calibrations } : {}),
      ...(optimized.length ? { optimizations: optimized } : {}),
    };
    return c.json(list);
  });

  app.get('/api/runs/:id', async (c) => {
    const runId = c.req.param('id');
    if (!(await runs.has(runId))) return c.json({ error: notFoundMessage(runId) }, 404);
    const report = await catalog.report(runId);
    const entry = catalog.list().find((run) => run.runId === runId);
    if (!report || !entry) return c.json({ error: notFoundMessage(runId) }, 404);
    const payload: RunPayload = {
      run: toViewRun(report),
      previous_run_id: runs.previousOf(entry)?.runId ?? null,
    };
    return c.json(payload);
  });

  const compareJson = async (currentId: string, baselineId: string | undefined) => {
    if (!(await runs.has(currentId))) return { error: notFoundMessage(currentId) };
    const currentEntry = catalog.list().find((run) => run.runId === currentId);
    const baselineRunId = baselineId ?? (currentEntry ? runs.previousOf(currentEntry)?.runId : undefined);
    if (baselineRunId === undefined)
      return {
        error: `Run ${currentId} has no earlier run of the same agent to compare with; pick one on the runs page.`,
      };
    if (!(await runs.has(baselineRunId))) return { error: notFoundMessage(baselineRunId) };
    const [current, baseline] = await Promise.all([catalog.report(currentId), catalog.report(baselineRunId)]);
    if (!current || !baseline) return { error: notFoundMessage(current ? baselineRunId : currentId) };
    const comparison = compareRuns(current, baseline, { suiteCases: current.suite_cases ?? [] });
    const payload: ComparePayload = {
      comparison: toViewComparison(current, baseline, comparison),
      choices: catalog.list().map((run) => ({ run_id: run.runId, started_at: run.header.started_at })),
    };
    return payload;
  };
  app.get('/api/compare/:current', async (c) => {
    const payload = await compareJson(c.req.param('current'), undefined);
    return 'error' in payload ? c.json(payload, 404) : c.json(payload);
  });
  app.get('/api/compare/:current/:baseline', async (c) => {
    const payload = await compareJson(c.req.param('current'), c.req.param('baseline'));
    return 'error' in payload ? c.json(payload, 404) : c.json(payload);
  });

  app.get('/api/events', (c) => feed.stream(c));
}
