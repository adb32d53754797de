import type { Hono } from 'hono';
import { VIEW_CLIENT_SCRIPT } from './assets/view-client-script.js';
import { VIEW_STYLES } from './assets/view-styles.js';
import { type KnownRuns, notFoundMessage } from './known-runs.js';
import { renderNotFoundPage } from './pages/render-compare-page.js';
import { renderViewShell } from './render-view-shell.js';

/** The HTML shell every page shares (the script draws the page from /api/). */
const shell = () => renderViewShell({ boot: { mode: 'served' }, assets: 'linked' });

/** The shell with a not-found page in it. */
export function notFoundShell(message: string): string {
  return renderViewShell({
    boot: { mode: 'served' },
    assets: 'linked',
    page: renderNotFoundPage(message, 'served'),
  });
}

/** The view's pages and assets: one shell for every known address, a 404 page for the rest. */
export function addViewPageRoutes(app: Hono, runs: KnownRuns): void {
  app.get('/', (c) => c.html(shell()));
  app.get('/runs/:id', async (c) => {
    const runId = c.req.param('id');
    return (await runs.has(runId)) ? c.html(shell()) : c.html(notFoundShell(notFoundMessage(runId)), 404);
  });
  app.get('/runs/:id/cases/:name', async (c) => {
    const runId = c.req.param('id');
    if (!(await runs.has(runId))) return c.html(notFoundShell(notFoundMessage(runId)), 404);
    const report = await runs.catalog.report(runId);
    const name = c.req.param('name');
    if (!report?.cases.some((entry) => entry.name === name))
      return c.html(notFoundShell(`Run ${runId} has no case named "${name}".`), 404);
    return c.html(shell());
  });
  const comparePage = async (currentId: string, baselineId: string | undefined) => {
    for (const runId of [currentId, ...(baselineId !== undefined ? [baselineId] : [])])
      if (!(await runs.has(runId))) return { status: 404 as const, message: notFoundMessage(runId) };
    return { status: 200 as const, message: '' };
  };
  app.get('/compare/:current', async (c) => {
    const page = await comparePage(c.req.param('current'), undefined);
    return page.status === 200 ? c.html(shell()) : c.html(notFoundShell(page.message), 404);
  });
  app.get('/compare/:current/:baseline', async (c) => {
    const page = await comparePage(c.req.param('current'), c.req.param('baseline'));
    return page.status === 200 ? c.html(shell()) : c.html(notFoundShell(page.message), 404);
  });

  app.get('/assets/view.js', (c) =>
    c.body(VIEW_CLIENT_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }),
  );
  app.get('/assets/view.css', (c) => c.body(VIEW_STYLES, 200, { 'Content-Type': 'text/css; charset=utf-8' }));
}
