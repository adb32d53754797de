import path from 'node:path';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { latestCalibrations } from '../runner/calibration/latest-calibrations.js';
import { compareRuns } from '../runner/report/index.js';
import { VIEW_CLIENT_SCRIPT } from './assets/view-client-script.js';
import { VIEW_STYLES } from './assets/view-styles.js';
import { toRunList, toViewComparison, toViewRun } from './build-view-data.js';
import { renderNotFoundPage } from './pages/render-compare-page.js';
import type { ComparePayload, RunPayload } from './pages/view-data-source.js';
import { renderViewShell, SERVED_CSP } from './render-view-shell.js';
import { type CatalogEntry, isRunId, RunCatalog } from './run-catalog.js';
import type { ViewRunList } from './view-data.js';

/** Options of createViewApp. */
export interface ViewAppOptions {
  /** The runs folder (`<agent folder>/.holodeck/runs`). */
  runsDir: string;
  /**
   * Host names the app answers (the Host header): by default only loopback names, so a web page
   * elsewhere cannot reach it through DNS rebinding. `any` when bound to a non-local host on purpose.
   */
  allowedHosts?: readonly string[] | 'any';
  /** How often the runs folder is checked for changes while a page listens (default 500 ms). */
  pollIntervalMs?: number;
}

/** The view server's app and what it holds open. */
export interface ViewApp {
  app: Hono;
  catalog: RunCatalog;
  /** Ends the live-update streams. */
  close(): void;
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]', '::1'];

/** The host name of a Host header value (`127.0.0.1:4173` → `127.0.0.1`, `[::1]:80` → `[::1]`). */
function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  return value.split(':')[0] ?? '';
}

function notFoundMessage(runId: string): string {
  return isRunId(runId)
    ? `No saved run has the id "${runId}". The runs page lists every run in this folder.`
    : `"${runId}" is not a run id: run ids hold only letters, digits, ".", "_" and "-".`;
}

/**
 * The `holodeck test view` server as a Hono app (testable with `app.request()`): the pages
 * (one HTML shell; the script draws them from /api/), the JSON they read, and a server-sent
 * event stream that says which runs changed on disk. Every response carries a strict CSP.
 */
export function createViewApp(options: ViewAppOptions): ViewApp {
  const catalog = new RunCatalog(options.runsDir);
  const allowed = options.allowedHosts ?? LOOPBACK_HOSTS;
  const listeners = new Set<(ids: string[]) => void>();
  /** Wakes each open event stream so it can end (close()). */
  const closers = new Set<() => void>();
  let closed = false;
  let polling: NodeJS.Timeout | undefined;
  let refreshing: Promise<string[]> | undefined;

  /** One refresh at a time; callers share it. */
  const refresh = () => {
    refreshing ??= catalog.refresh().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };
  const startPolling = () => {
    if (polling) return;
    polling = setInterval(async () => {
      const changed = await refresh().catch(() => []);
      if (changed.length) for (const listener of listeners) listener(changed);
    }, options.pollIntervalMs ?? 500);
    polling.unref();
  };
  const stopPollingWhenIdle = () => {
    if (listeners.size === 0 && polling) {
      clearInterval(polling);
      polling = undefined;
    }
  };

  const app = new Hono();

  app.use('*', async (c, next) => {
    const host = hostName(c.req.header('host') ?? '');
    if (allowed !== 'any' && !allowed.includes(host)) {
      return c.text(
        `Refused: this server answers only requests addressed to ${allowed.join(', ')}, not "${host}" (a guard against DNS rebinding). To serve other hosts, start it with --host <address> --allow-remote.`,
        403,
      );
    }
    await next();
    c.header('Content-Security-Policy', SERVED_CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
  });

  const shell = () => renderViewShell({ boot: { mode: 'served' }, assets: 'linked' });
  const notFound = (message: string) =>
    renderViewShell({
      boot: { mode: 'served' },
      assets: 'linked',
      page: renderNotFoundPage(message, 'served'),
    });

  const knownRun = async (runId: string): Promise<boolean> => {
    if (!isRunId(runId)) return false;
    await refresh();
    return catalog.list().some((entry) => entry.runId === runId);
  };

  app.get('/', (c) => c.html(shell()));
  app.get('/runs/:id', async (c) => {
    const runId = c.req.param('id');
    return (await knownRun(runId)) ? c.html(shell()) : c.html(notFound(notFoundMessage(runId)), 404);
  });
  app.get('/runs/:id/cases/:name', async (c) => {
    const runId = c.req.param('id');
    if (!(await knownRun(runId))) return c.html(notFound(notFoundMessage(runId)), 404);
    const report = await catalog.report(runId);
    const name = c.req.param('name');
    if (!report?.cases.some((entry) => entry.name === name))
      return c.html(notFound(`Run ${runId} has no case named "${name}".`), 404);
    return c.html(shell());
  });
  const comparePage = async (currentId: string, baselineId: string | undefined) => {
    for (const runId of [currentId, ...(baselineId !== undefined ? [baselineId] : [])])
      if (!(await knownRun(runId))) return { status: 404 as const, message: notFoundMessage(runId) };
    return { status: 200 as const, message: '' };
  };
  app.get('/compare/:current', async (c) => {
    const page = await comparePage(c.req.param('current'), undefined);
    return page.status === 200 ? c.html(shell()) : c.html(notFound(page.message), 404);
  });
  app.get('/compare/:current/:baseline', async (c) => {
    const page = await comparePage(c.req.param('current'), c.req.param('baseline'));
    return page.status === 200 ? c.html(shell()) : c.html(notFound(page.message), 404);
  });

  app.get('/assets/view.js', (c) =>
    c.body(VIEW_CLIENT_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }),
  );
  app.get('/assets/view.css', (c) => c.body(VIEW_STYLES, 200, { 'Content-Type': 'text/css; charset=utf-8' }));

  app.get('/api/runs', async (c) => {
    await refresh();
    // The calibrations folder is the runs folder's sibling (`.holodeck/calibrations`).
    const calibrations = await latestCalibrations(
      path.join(path.dirname(options.runsDir), 'calibrations'),
    ).catch(() => []);
    const list: ViewRunList = {
      runs: toRunList(catalog.list()),
      unreadable: catalog.unreadableFiles(),
      ...(calibrations.length ? { calibrations } : {}),
    };
    return c.json(list);
  });

  /** The finished run of the same agent file before `entry`, or null. */
  const previousOf = (entry: CatalogEntry): CatalogEntry | undefined => {
    const runs = catalog.list();
    return runs
      .slice(runs.findIndex((run) => run.runId === entry.runId) + 1)
      .find((older) => older.agentFile === entry.agentFile && older.header.planned_cases === null);
  };

  app.get('/api/runs/:id', async (c) => {
    const runId = c.req.param('id');
    if (!(await knownRun(runId))) return c.json({ error: notFoundMessage(runId) }, 404);
    const report = await catalog.report(runId);
    const entry = catalog.list().find((run) => run.runId === runId);
    if (!report || !entry) return c.json({ error: notFoundMessage(runId) }, 404);
    const payload: RunPayload = { run: toViewRun(report), previous_run_id: previousOf(entry)?.runId ?? null };
    return c.json(payload);
  });

  const compareJson = async (currentId: string, baselineId: string | undefined) => {
    if (!(await knownRun(currentId))) return { error: notFoundMessage(currentId) };
    const currentEntry = catalog.list().find((run) => run.runId === currentId);
    const baselineRunId = baselineId ?? (currentEntry ? previousOf(currentEntry)?.runId : undefined);
    if (baselineRunId === undefined)
      return {
        error: `Run ${currentId} has no earlier run of the same agent to compare with; pick one on the runs page.`,
      };
    if (!(await knownRun(baselineRunId))) return { error: notFoundMessage(baselineRunId) };
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

  app.get('/api/events', (c) =>
    streamSSE(c, async (stream) => {
      await refresh();
      let wake: (() => void) | undefined;
      const queue: string[][] = [];
      const listener = (ids: string[]) => {
        queue.push(ids);
        wake?.();
      };
      const end = () => wake?.();
      closers.add(end);
      listeners.add(listener);
      startPolling();
      stream.onAbort(() => {
        listeners.delete(listener);
        stopPollingWhenIdle();
        wake?.();
      });
      await stream.writeSSE({ event: 'ready', data: '[]' });
      while (!closed && !stream.aborted && !stream.closed) {
        const ids = queue.shift();
        if (ids) {
          await stream.writeSSE({ event: 'runs-changed', data: JSON.stringify(ids) });
          continue;
        }
        // Wait for a change, or 15 s for a keep-alive comment.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 15_000);
          timer.unref();
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
        if (!queue.length && !stream.aborted && !closed) await stream.write(': keep-alive\n\n');
      }
      closers.delete(end);
      listeners.delete(listener);
      stopPollingWhenIdle();
    }),
  );

  app.notFound((c) => c.html(notFound('There is no page at this address.'), 404));

  return {
    app,
    catalog,
    close: () => {
      closed = true;
      for (const end of [...closers]) end();
      listeners.clear();
      if (polling) clearInterval(polling);
      polling = undefined;
    },
  };
}
