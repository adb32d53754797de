import type { Hono } from 'hono';
import { parseAuditQuery } from '../audit-query.js';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { ConsoleRequestError } from '../console-errors.js';
import { streamAuditExport } from '../export-audit.js';
import { renderAudit } from '../views/render-audit.js';
import { renderPage } from './render-page.js';

/** `GET /console/audit` (search form and results) and its CSV and JSON exports. */
export function registerAuditRoutes(app: Hono<ConsoleEnv>, context: ConsoleContext): void {
  app.get('/audit', async (c) => {
    const raw = c.req.query();
    const parsed = parseAuditQuery(raw);
    if (!parsed.ok)
      return renderPage(c, 'audit', 'Audit', renderAudit({ query: raw, errors: parsed.errors }), 400);
    // The page opens on the most recent entries (an empty search), newest first.
    const entries = await context.deps.searchAudit(c.get('session').operator, parsed.search);
    return renderPage(
      c,
      'audit',
      'Audit',
      renderAudit({ query: raw, exportQuery: parsed.query, entries, now: context.now() }),
    );
  });

  for (const format of ['csv', 'json'] as const) {
    app.get(`/audit/export.${format}`, async (c) => {
      const parsed = parseAuditQuery(c.req.query());
      if (!parsed.ok) throw new ConsoleRequestError(400, parsed.errors.join('; '));
      const entries = await context.deps.searchAudit(c.get('session').operator, parsed.search);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      c.header('Content-Disposition', `attachment; filename="novarch-audit-${stamp}.${format}"`);
      const type = format === 'json' ? 'application/json' : 'text/csv';
      return c.body(streamAuditExport(entries, format), 200, { 'Content-Type': `${type}; charset=utf-8` });
    });
  }
}
