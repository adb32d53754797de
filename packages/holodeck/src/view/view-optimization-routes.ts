import path from 'node:path';
import type { Hono } from 'hono';
import { listOptimizations, type StoredOptimization } from '../optimize/trials-file.js';
import { toOptimizationSummary, toViewOptimization } from './build-view-optimization.js';
import { renderViewShell } from './render-view-shell.js';
import { notFoundShell } from './view-page-routes.js';

/** Optimization ids are folder names that `holodeck test optimize` makes: a timestamp and hex. */
const OPTIMIZE_ID = /^[\w.-]{1,200}$/;

/** What a page or the API says about an optimization it cannot find. */
export function optimizationNotFound(id: string): string {
  return OPTIMIZE_ID.test(id)
    ? `No optimization has the id "${id}". The runs page lists the optimizations of this agent.`
    : `"${id}" is not an optimization id: they hold only letters, digits, ".", "_" and "-".`;
}

/**
 * The optimizations of the agent (`<agent folder>/.holodeck/optimize/<id>/trials.jsonl`, the runs
 * folder's sibling), read again on every request: a running search appends a line per trial.
 */
export function optimizationReader(runsDir: string) {
  const agentFolder = path.dirname(path.dirname(runsDir));
  const all = () => listOptimizations(agentFolder).catch((): StoredOptimization[] => []);
  return {
    all,
    async one(id: string): Promise<StoredOptimization | undefined> {
      if (!OPTIMIZE_ID.test(id)) return undefined;
      return (await all()).find((entry) => entry.id === id);
    },
    async summaries() {
      return (await all()).map(toOptimizationSummary);
    },
  };
}

/** `/optimizations/:id` (the page shell) and `/api/optimizations/:id` (its JSON). */
export function addOptimizationRoutes(app: Hono, runsDir: string): void {
  const reader = optimizationReader(runsDir);
  app.get('/optimizations/:id', async (c) => {
    const id = c.req.param('id');
    if (!(await reader.one(id))) return c.html(notFoundShell(optimizationNotFound(id)), 404);
    return c.html(renderViewShell({ boot: { mode: 'served' }, assets: 'linked' }));
  });
  app.get('/api/optimizations/:id', async (c) => {
    const id = c.req.param('id');
    const stored = await reader.one(id);
    if (!stored) return c.json({ error: optimizationNotFound(id) }, 404);
    return c.json(toViewOptimization(stored));
  });
}
