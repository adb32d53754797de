import { Hono } from 'hono';
import { KnownRuns } from './known-runs.js';
import { RunCatalog } from './run-catalog.js';
import { RunChangeFeed } from './run-change-feed.js';
import { addViewApiRoutes } from './view-api-routes.js';
import { LOOPBACK_HOSTS, viewHostGuard } from './view-host-guard.js';
import { addLabelRoutes, type ViewLabelWriter } from './view-label-routes.js';
import { addOptimizationRoutes } from './view-optimization-routes.js';
import { addViewPageRoutes, notFoundShell } from './view-page-routes.js';

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
  /** Lets the case page write calibration labels (`--writable`); read-only without it. */
  labels?: ViewLabelWriter;
}

/** The view server's app and what it holds open. */
export interface ViewApp {
  app: Hono;
  catalog: RunCatalog;
  /** Ends the live-update streams. */
  close(): void;
}

/**
 * The `holodeck test view` server as a Hono app (testable with `app.request()`): the pages
 * (one HTML shell; the script draws them from /api/), the JSON they read, and a server-sent
 * event stream that says which runs changed on disk. Every response carries a strict CSP.
 */
export function createViewApp(options: ViewAppOptions): ViewApp {
  const catalog = new RunCatalog(options.runsDir);
  const feed = new RunChangeFeed(catalog, options.pollIntervalMs ?? 500);
  const runs = new KnownRuns(catalog, feed);
  const app = new Hono();
  app.use('*', viewHostGuard(options.allowedHosts ?? LOOPBACK_HOSTS));
  addViewPageRoutes(app, runs);
  addViewApiRoutes(app, runs, feed, options.runsDir);
  addOptimizationRoutes(app, options.runsDir);
  addLabelRoutes(app, runs, options.labels);
  app.notFound((c) => c.html(notFoundShell('There is no page at this address.'), 404));
  return { app, catalog, close: () => feed.close() };
}
