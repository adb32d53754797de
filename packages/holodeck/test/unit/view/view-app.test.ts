import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeJsonReport } from '../../../src/runner/report/write-json-report.js';
import { createViewApp, type ViewApp } from '../../../src/view/view-app.js';
import { runsFolder, viewRuns } from './view-runs.js';

const LOCAL = { host: '127.0.0.1:4173' };
// biome-ignore lint/suspicious/noExplicitAny: the tests read the server's own JSON field by field
const json = async (response: Response): Promise<any> => response.json();
let view: ViewApp | undefined;
afterEach(() => view?.close());

function app(runsDir = runsFolder(viewRuns()), options: { allowedHosts?: 'any' } = {}) {
  view = createViewApp({ runsDir, pollIntervalMs: 50, ...options });
  return view.app;
}

const get = (target: ReturnType<typeof app>, url: string, headers: Record<string, string> = LOCAL) =>
  target.request(url, { headers });

describe('view server routes (app.request)', () => {
  it('serves the page shell with a title, landmarks and a strict CSP', async () => {
    const response = await get(app(), '/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const text = await response.text();
    expect(text).toContain('<title>HoloDeck test runs</title>');
    for (const landmark of [
      '<header class="site">',
      '<nav class="crumbs"',
      '<main id="main"',
      '<footer class="site">',
    ])
      expect(text).toContain(landmark);
    expect(text).toContain('<script src="/assets/view.js" defer></script>');
  });

  it('lists the runs newest first, marking the configuration change', async () => {
    const response = await get(app(), '/api/runs');
    const list = await json(response);
    expect(list.runs.map((run: { run_id: string }) => run.run_id)).toEqual(['run-3', 'run-2', 'run-1']);
    expect(list.runs.map((run: { config_changed: boolean }) => run.config_changed)).toEqual([
      false,
      true,
      false,
    ]);
    expect(list.runs[0].git).toEqual({
      commit: 'c0ffee1234567890c0ffee1234567890c0ffee12',
      branch: 'main',
      dirty: false,
    });
  });

  it('gives a run with its cases and the previous run to compare with', async () => {
    const payload = await json(await get(app(), '/api/runs/run-3'));
    expect(payload.previous_run_id).toBe('run-2');
    expect(payload.run.cases.map((entry: { name: string }) => entry.name)).toContain('order-status');
    // The report's copies of the first attempt are left out: they are in attempts.
    expect(payload.run.cases[0].response).toBeUndefined();
    expect(payload.run.cases[0].attempts[0].metrics[1].reason).toContain('warehouse check');
  });

  it('answers an unknown run id with a 404 page and a 404 API error', async () => {
    const target = app();
    const page = await get(target, '/runs/run-9');
    expect(page.status).toBe(404);
    const text = await page.text();
    expect(text).toContain('<title>Not found · HoloDeck</title>');
    expect(text).toContain(
      'No saved run has the id &quot;run-9&quot;. The runs page lists every run in this folder.',
    );
    const api = await get(target, '/api/runs/run-9');
    expect(api.status).toBe(404);
    expect(await json(api)).toEqual({
      error: 'No saved run has the id "run-9". The runs page lists every run in this folder.',
    });
    const unknownCase = await get(target, '/runs/run-3/cases/nope');
    expect(unknownCase.status).toBe(404);
    expect(await unknownCase.text()).toContain('Run run-3 has no case named &quot;nope&quot;.');
  });

  it('never reads outside the runs folder: ids with separators or dots are not run ids', async () => {
    const runsDir = runsFolder(viewRuns());
    // A valid run file just outside the runs folder, which a traversal would reach.
    const [outside] = viewRuns();
    if (!outside) throw new Error('no run');
    writeFileSync(
      path.join(runsDir, '..', 'outside.json'),
      writeJsonReport({ ...outside, run_id: 'outside' }),
    );
    const target = app(runsDir);
    for (const id of ['..%2Foutside', '%2E%2E%2Foutside', '.hidden', 'run-3%2F..%2F..%2Foutside']) {
      const api = await get(target, `/api/runs/${id}`);
      expect(api.status, id).toBe(404);
      expect(await api.text(), id).not.toContain('"run_id":"outside"');
      expect((await get(target, `/runs/${id}`)).status, id).toBe(404);
    }
    const traversal = await get(target, '/api/runs/..%2Foutside');
    expect(await json(traversal)).toEqual({
      error: '"../outside" is not a run id: run ids hold only letters, digits, ".", "_" and "-".',
    });
    expect((await get(target, '/runs/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
  });

  it('refuses a request addressed to another host (DNS rebinding), unless allowed', async () => {
    const refused = await get(app(), '/api/runs', { host: 'evil.example:4173' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe(
      'Refused: this server answers only requests addressed to 127.0.0.1, localhost, [::1], ::1, not "evil.example" (a guard against DNS rebinding). To serve other hosts, start it with --host <address> --allow-remote.',
    );
    const allowed = await get(app(undefined, { allowedHosts: 'any' }), '/api/runs', {
      host: 'evil.example:4173',
    });
    expect(allowed.status).toBe(200);
  });

  it('compares a run with the run before by default, or with any other', async () => {
    const target = app();
    const byDefault = await json(await get(target, '/api/compare/run-3'));
    expect(byDefault.comparison.baseline.run_id).toBe('run-2');
    // Two single-attempt cases flipped: no significant change each (the suite figures judge them).
    expect(byDefault.comparison.counts).toEqual({
      regressed: 0,
      improved: 0,
      unchanged: 2,
      new: 3,
      removed: 1,
      'not-compared': 0,
    });
    expect(byDefault.choices).toHaveLength(3);
    const chosen = await json(await get(target, '/api/compare/run-3/run-1'));
    expect(chosen.comparison.baseline.run_id).toBe('run-1');
    const first = await get(target, '/api/compare/run-1');
    expect(first.status).toBe(404);
    expect((await json(first)).error).toBe(
      'Run run-1 has no earlier run of the same agent to compare with; pick one on the runs page.',
    );
    expect((await get(target, '/compare/run-3/nope')).status).toBe(404);
  });

  it('serves the script and stylesheet, and a 404 page for any other address', async () => {
    const target = app();
    const script = await get(target, '/assets/view.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await script.text()).length).toBeGreaterThan(1000);
    expect((await get(target, '/assets/view.css')).headers.get('content-type')).toBe(
      'text/css; charset=utf-8',
    );
    const missing = await get(target, '/nothing/here');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('There is no page at this address.');
  });

  it('says on its event stream which runs changed on disk', async () => {
    const runsDir = runsFolder(viewRuns());
    const target = app(runsDir);
    const response = await get(target, '/api/events');
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    const decoder = new TextDecoder();
    let received = '';
    const readUntil = async (text: string) => {
      const deadline = Date.now() + 10_000;
      while (!received.includes(text)) {
        if (Date.now() > deadline) throw new Error(`no "${text}" in the event stream; got: ${received}`);
        const { value, done } = await reader.read();
        if (done) throw new Error(`the event stream ended; got: ${received}`);
        received += decoder.decode(value);
      }
    };
    await readUntil('event: ready');
    const [run] = viewRuns();
    if (!run) throw new Error('no run');
    writeFileSync(path.join(runsDir, 'run-4.json'), writeJsonReport({ ...run, run_id: 'run-4' }));
    await readUntil('event: runs-changed\ndata: ["run-4"]');
    await reader.cancel();
  });
});
