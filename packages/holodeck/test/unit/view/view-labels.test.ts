import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderLabelControls } from '../../../src/view/pages/render-label-controls.js';
import { serveView } from '../../../src/view/serve-view.js';
import { createViewApp, type ViewApp } from '../../../src/view/view-app.js';
import type { ViewCase, ViewRun } from '../../../src/view/view-data.js';
import { labelledAgent, SECRET } from './labelled-agent.js';

let view: ViewApp | undefined;
afterEach(() => view?.close());

const HOST = '127.0.0.1:4173';
const LABELS = '/api/runs/run-3/cases/refund-timing/labels';

function post(
  app: ViewApp['app'],
  body: unknown,
  headers: Record<string, string> = { origin: `http://${HOST}`, 'x-holodeck-csrf': 'test-token' },
  url = LABELS,
) {
  return app.request(url, {
    method: 'POST',
    headers: { host: HOST, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('the viewer writes calibration labels only when asked to, from its own page', () => {
  it('is read-only by default: every label is refused with 403 and how to allow it', async () => {
    const { runsDir, folder } = await labelledAgent();
    view = createViewApp({ runsDir });
    expect(await (await view.app.request('/api/labelling', { headers: { host: HOST } })).json()).toEqual({
      writable: false,
    });
    const response = await post(view.app, { metric: 'helpfulness', label: 'fail' });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error:
        'Refused: this viewer is read-only. Start it with holodeck test view --writable to write calibration labels.',
    });
    expect(existsSync(path.join(folder, 'labels.yaml'))).toBe(false);
  });

  it('refuses a cross-origin post, one without Origin, and one without the CSRF token (403, exact messages)', async () => {
    const { runsDir, folder, writer } = await labelledAgent();
    view = createViewApp({ runsDir, labels: writer });
    const label = { metric: 'helpfulness', label: 'fail' };
    const crossOrigin = await post(view.app, label, {
      origin: 'http://evil.example',
      'x-holodeck-csrf': 'test-token',
    });
    expect(crossOrigin.status).toBe(403);
    expect(await crossOrigin.json()).toEqual({
      error: `Refused: a label may only be written from this viewer's own page (Origin "http://evil.example" is not http://${HOST}).`,
    });
    const noOrigin = await post(view.app, label, { 'x-holodeck-csrf': 'test-token' });
    expect(noOrigin.status).toBe(403);
    expect(await noOrigin.json()).toEqual({
      error: `Refused: a label may only be written from this viewer's own page (Origin missing is not http://${HOST}).`,
    });
    const noToken = {
      error: "Refused: the request lacks this viewer's CSRF token (reload the page to get a fresh one).",
    };
    const missing = await post(view.app, label, { origin: `http://${HOST}` });
    expect(missing.status).toBe(403);
    expect(await missing.json()).toEqual(noToken);
    const wrong = await post(view.app, label, { origin: `http://${HOST}`, 'x-holodeck-csrf': 'test-tokem' });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual(noToken);
    expect(existsSync(path.join(folder, 'labels.yaml'))).toBe(false);
  });

  it("writes the label into the metric's labels file, creating it, readable YAML, secrets redacted", async () => {
    const { runsDir, folder, writer } = await labelledAgent();
    view = createViewApp({ runsDir, labels: writer });
    const labelling = await (await view.app.request('/api/labelling', { headers: { host: HOST } })).json();
    expect(labelling).toEqual({ writable: true, token: 'test-token', metrics: ['helpfulness'] });
    const response = await post(view.app, {
      metric: 'helpfulness',
      label: 'fail',
      comment: `It never says when. ${SECRET}`,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual({ metric: 'helpfulness', label: 'fail', file: 'labels.yaml' });
    const text = readFileSync(path.join(folder, 'labels.yaml'), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(parse(text)).toEqual({
      examples: [
        {
          input: expect.any(String),
          output: 'Refunds take a while.',
          label: 'fail',
          comment: 'It never says when. [redacted]',
          source: 'run run-3, case refund-timing, attempt 1',
        },
      ],
    });
    // A second label is appended below the first.
    expect((await post(view.app, { metric: 'helpfulness', label: 'pass' })).status).toBe(200);
    const labels = parse(readFileSync(path.join(folder, 'labels.yaml'), 'utf8')).examples;
    expect(labels.map((example: { label: string }) => example.label)).toEqual(['fail', 'pass']);
  });

  it('says what is wrong with a label it cannot write (400/404)', async () => {
    const { runsDir, writer } = await labelledAgent();
    view = createViewApp({ runsDir, labels: writer });
    const unlabelled = await post(view.app, { metric: 'tone', label: 'pass' });
    expect(unlabelled.status).toBe(400);
    expect(await unlabelled.json()).toEqual({
      error:
        'Judge metric "tone" has no calibration file in agent.yaml; the calibrated ones are "helpfulness".',
    });
    const bad = await post(view.app, { metric: 'helpfulness', label: 'maybe' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(
      /^The label must be JSON \{ metric, label: "pass" \| "fail", comment\? \}: label: /,
    );
    const noCase = await post(
      view.app,
      { metric: 'helpfulness', label: 'pass' },
      undefined,
      '/api/runs/run-3/cases/nope/labels',
    );
    expect(noCase.status).toBe(404);
    expect(await noCase.json()).toEqual({ error: 'Run run-3 has no case named "nope".' });
  });

  it('serves writable only on a loopback address', async () => {
    const { runsDir, writer } = await labelledAgent();
    await expect(serveView({ runsDir, host: '0.0.0.0', allowRemote: true, labels: writer })).rejects.toThrow(
      '--writable: the viewer writes labels files only when it listens on a loopback address, not 0.0.0.0\n    hint: leave --host out (127.0.0.1), or leave --writable out to serve read-only',
    );
  });

  it('offers the control only for calibrated judge metrics of the case, its names escaped', () => {
    const testCase = {
      name: '<b>case</b>',
      attempts: [{ metrics: [{ name: 'helpfulness' }, { name: 'tone' }] }],
    } as unknown as ViewCase;
    const run = { run_id: 'run-3' } as ViewRun;
    const shown = String(
      renderLabelControls(run, testCase, { writable: true, token: 't', metrics: ['helpfulness'] }),
    );
    expect(shown).toContain('Judge "helpfulness": should this answer pass?');
    expect(shown).not.toContain('Judge "tone"');
    expect(shown).toContain('data-case="&lt;b&gt;case&lt;/b&gt;"');
    expect(String(renderLabelControls(run, testCase, { writable: false }))).toBe('');
  });
});
