import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LabelsFile } from '../../../src/config/index.js';
import type { Metric } from '../../../src/evals/metric.js';
import { calibrateMetric } from '../../../src/runner/calibration/calibrate-metric.js';
import type { CalibrationReport } from '../../../src/runner/calibration/calibration-report.js';
import { saveCalibration } from '../../../src/runner/calibration/calibration-store.js';
import { renderCalibrations } from '../../../src/view/pages/render-runs-page.js';
import { createViewApp, type ViewApp } from '../../../src/view/view-app.js';
import { runsFolder, viewRuns } from './view-runs.js';

let view: ViewApp | undefined;
afterEach(() => view?.close());

const labels: LabelsFile = {
  file: '/agent/labels.yaml',
  hash: 'sha256:00',
  lines: [2, 5, 8, 11],
  examples: [
    { input: 'a', output: 'good', label: 'pass' },
    { input: 'b', output: 'good too', label: 'pass' },
    { input: 'c', output: 'bad', label: 'fail' },
    { input: 'd', output: 'unsure <b>', label: 'fail' },
  ],
};

/** A judge metric scripted per answer: "good" passes, "bad" fails, "unsure" passes on its first judgement only. */
const scripted: Metric = {
  name: 'tone <i>',
  type: 'rubric',
  async evaluate(input, context) {
    const passed =
      input.response.startsWith('good') || (input.response.startsWith('unsure') && !context.sample);
    return {
      name: 'tone <i>',
      type: 'rubric',
      score: passed ? 1 : 0,
      threshold: 0.5,
      passed,
      reason: 'scripted',
    };
  },
};

async function calibration(): Promise<CalibrationReport> {
  const metric = await calibrateMetric(scripted, {
    judge: { model: 'stub', judge: async () => ({}) },
    labels,
    labelsPath: 'labels.yaml',
    fingerprint: 'sha256:ff',
    minKappa: 0.6,
    samples: 3,
    confidence: 0.95,
    concurrency: 2,
  });
  return {
    schema_version: 1,
    kind: 'holodeck-calibration',
    calibration_id: 'cal-1',
    started_at: '2026-12-01T10:00:00.000Z',
    finished_at: '2026-12-01T10:00:01.000Z',
    holodeck_version: '0',
    agent: { name: 'a', file: 'agent.yaml' },
    judge: { provider: 'anthropic', model: 'claude-judge' },
    samples: 3,
    confidence: 0.95,
    metrics: [metric],
  };
}

describe('calibrations in the viewer', () => {
  it('calibrateMetric counts a judge scripted to flip on one example, and the verdicts of the first judgements', async () => {
    const { metrics } = await calibration();
    expect(metrics[0]).toMatchObject({
      judged: 4,
      confusion: { true_pass: 2, false_fail: 0, false_pass: 1, true_fail: 1 },
      self_consistency: { samples: 3, examples: 4, flipped: 1 },
    });
    expect(metrics[0]?.examples.map((example) => example.verdicts)).toEqual([
      ['pass', 'pass', 'pass'],
      ['pass', 'pass', 'pass'],
      ['fail', 'fail', 'fail'],
      ['pass', 'fail', 'fail'],
    ]);
    expect(metrics[0]?.kappa.estimate).toBeCloseTo(0.5, 12);
  });

  it('/api/runs carries the newest calibration of each judge metric, and the runs page shows it escaped', async () => {
    const runsDir = runsFolder(viewRuns());
    await saveCalibration(await calibration(), path.join(path.dirname(runsDir), 'calibrations'));
    view = createViewApp({ runsDir, pollIntervalMs: 50 });
    const response = await view.app.request('/api/runs', { headers: { host: '127.0.0.1:4173' } });
    // biome-ignore lint/suspicious/noExplicitAny: the server's own JSON, read field by field
    const list: any = await response.json();
    expect(list.calibrations).toEqual([
      expect.objectContaining({
        metric: 'tone <i>',
        calibration_id: 'cal-1',
        judge_model: 'claude-judge',
        judged: 4,
        min_kappa: 0.6,
        flipped: 1,
      }),
    ]);
    const page = String(renderCalibrations(list.calibrations));
    expect(page).toContain('<h2>Judge calibrations</h2>');
    expect(page).toContain('tone &lt;i&gt;');
    expect(page).not.toContain('tone <i>');
    expect(page).toContain('0.50');
    expect(page).toContain('min 0.6: not met');
    expect(page).toContain('1 of 4');
  });

  it('leaves the runs page as it was without calibrations', async () => {
    view = createViewApp({ runsDir: runsFolder(viewRuns()), pollIntervalMs: 50 });
    // biome-ignore lint/suspicious/noExplicitAny: the server's own JSON, read field by field
    const list: any = await (
      await view.app.request('/api/runs', { headers: { host: '127.0.0.1:4173' } })
    ).json();
    expect(list.calibrations).toBeUndefined();
    expect(String(renderCalibrations([]))).toBe('');
  });
});
