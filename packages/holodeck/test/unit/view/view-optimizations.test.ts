import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRoute, routePath } from '../../../src/view/pages/page-route.js';
import { renderOptimizationPage } from '../../../src/view/pages/render-optimization-page.js';
import { renderRunsPage } from '../../../src/view/pages/render-runs-page.js';
import { createViewApp, type ViewApp } from '../../../src/view/view-app.js';
import type { ViewOptimization } from '../../../src/view/view-optimization.js';
import { finishedOptimization, PROPOSED, RATIONALE, writeOptimization } from './optimization-trials.js';
import { runsFolder, viewRuns } from './view-runs.js';

let view: ViewApp | undefined;
afterEach(() => view?.close());

const HOST = { headers: { host: '127.0.0.1:4173' } };
const FINISHED = '2026-12-01T10-00-00-000Z-abc123';
const RUNNING = '2026-12-02T10-00-00-000Z-def456';

async function app(): Promise<ViewApp> {
  const runsDir = runsFolder(viewRuns());
  const agentFolder = path.dirname(path.dirname(runsDir));
  await writeOptimization(agentFolder, FINISHED, finishedOptimization(FINISHED));
  // A search still running (or stopped by Ctrl+C): a start line and trial 0 only.
  await writeOptimization(agentFolder, RUNNING, finishedOptimization(RUNNING).slice(0, 2));
  view = createViewApp({ runsDir, pollIntervalMs: 50 });
  return view;
}

async function optimization(id: string): Promise<ViewOptimization> {
  const response = await (await app()).app.request(`/api/optimizations/${id}`, HOST);
  expect(response.status).toBe(200);
  return (await response.json()) as ViewOptimization;
}

describe('optimizations in the viewer', () => {
  it('routes /optimizations/<id> both ways', () => {
    expect(parseRoute(`/optimizations/${FINISHED}`)).toEqual({ page: 'optimization', optimizeId: FINISHED });
    expect(routePath({ page: 'optimization', optimizeId: 'a b' })).toBe('/optimizations/a%20b');
  });

  it('/api/runs lists the optimizations newest first, and the runs page links each one', async () => {
    const { app: served } = await app();
    // biome-ignore lint/suspicious/noExplicitAny: the server's own JSON, read field by field
    const list: any = await (await served.request('/api/runs', HOST)).json();
    expect(list.optimizations).toEqual([
      expect.objectContaining({
        optimize_id: RUNNING,
        trials: 0,
        best: null,
        stopped: null,
        holdout_agrees: null,
      }),
      expect.objectContaining({
        optimize_id: FINISHED,
        trials: 3,
        baseline_pass_rate: 0.25,
        best: 't3',
        best_pass_rate: 1,
        holdout_agrees: true,
        stopped: 'max-cost',
      }),
    ]);
    const page = String(renderRunsPage(list, 'served').body);
    expect(page).toContain('<h2>Optimizations</h2>');
    expect(page).toContain(`href="/optimizations/${FINISHED}"`);
    expect(page).toContain('t3: 100.0%');
    expect(page).toContain('the cost budget (--max-cost) was reached');
    expect(page).toContain('not finished');
  });

  it('shows each trial: candidate, train pass rate with its interval, cost, the decision and its reason', async () => {
    const data = await optimization(FINISHED);
    // 1 of 4 cases passing both attempts: the cluster interval of 25%.
    expect(data.trials[0]?.pass_rate.estimate).toBe(0.25);
    expect(data.trials[0]?.pass_rate.lower).toBeGreaterThan(0);
    expect(data.trials[0]?.pass_rate.upper).toBeLessThan(1);
    // Agent runs, proposer calls (trials and the failed proposal) and the holdout.
    expect(data.spent_usd).toBeCloseTo(0.02 + 0.03 + 0.005 + 0.02 + 0.05 + 0.005 + 0.001 + 0.01 + 0.03, 10);
    const page = renderOptimizationPage(data);
    const body = String(page.body);
    expect(page.title).toBe('Optimization of support');
    expect(body).toMatch(
      /<tr id="trial-t1">[\s\S]*?rejected: the gain is noise[\s\S]*?the interval does not exclude zero/,
    );
    expect(body).toMatch(
      /<tr id="trial-t2">[\s\S]*?temperature 0.5[\s\S]*?2 \/ 0[\s\S]*?rejected: adds Novarch kills or holds/,
    );
    expect(body).toMatch(/<tr id="trial-t3" class="winner">[\s\S]*?accepted: better beyond noise/);
    expect(body).toContain('+75.0 pts [+50.0, +100.0]');
    expect(body).toContain('25.0%<div class="muted small">[');
    expect(body).toContain('$0.0350'); // t1: its run ($0.03) and its proposal
    expect(body).toContain('Finished');
    expect(body).toContain('the cost budget (--max-cost) was reached');
    expect(body).toContain('<strong>Winner t3</strong>');
    expect(body).toContain('<code>/agents/support/agent.optimized.yaml</code>');
    expect(body).toContain('<strong>The holdout agrees</strong>: pass rate 0.0% (agent.yaml) → 100.0% (t3)');
    // The instructions' diff against the parent's (t0: agent.yaml as written).
    expect(body).toContain(
      '<ins><span class="visually-hidden">[only in the instructions of t3: </span>agent. End every answer with CONFIRMED.',
    );
    expect(body).toContain('<dt>temperature</dt><dd><code>0.5</code></dd>');
  });

  it('escapes what the proposer wrote: instructions, rationale, reasons', async () => {
    const body = String(renderOptimizationPage(await optimization(FINISHED)).body);
    expect(PROPOSED).toContain('<script>');
    expect(body).not.toContain('<script>');
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(body).not.toContain(RATIONALE);
    expect(body).toContain('Polite &lt;b&gt;answers&lt;/b&gt; pass more cases.');
    expect(body).toContain('the proposer failed: &lt;i&gt;timeout&lt;/i&gt;');
  });

  it('says an unfinished optimization continues with --resume', async () => {
    const body = String(renderOptimizationPage(await optimization(RUNNING)).body);
    expect(body).toContain(`--resume ${RUNNING}`);
    expect(body).not.toContain('Winner');
  });

  it('answers 404 with the reason for an unknown or malformed id, on the page and the API', async () => {
    const { app: served } = await app();
    const missing = await served.request('/api/optimizations/nope', HOST);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: 'No optimization has the id "nope". The runs page lists the optimizations of this agent.',
    });
    const page = await served.request('/optimizations/nope', HOST);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('No optimization has the id &quot;nope&quot;.');
    const bad = await served.request(`/api/optimizations/${encodeURIComponent('../x')}`, HOST);
    expect(bad.status).toBe(404);
    expect(await bad.json()).toEqual({
      error: '"../x" is not an optimization id: they hold only letters, digits, ".", "_" and "-".',
    });
    expect((await served.request(`/optimizations/${FINISHED}`, HOST)).status).toBe(200);
  });
});
