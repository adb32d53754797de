import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { LoadedAgent, MetricConfig } from '../../../../src/config/index.js';
import { loadAgent } from '../../../../src/load-agent.js';
import { calibrationStatuses } from '../../../../src/runner/calibration/calibration-status.js';
import {
  calibrationsDirectory,
  saveCalibration,
} from '../../../../src/runner/calibration/calibration-store.js';
import { judgeFingerprint, judgeSettingsOf } from '../../../../src/runner/calibration/judge-fingerprint.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'holodeck-calibration-'));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const LABELS = stringify({ examples: [{ input: 'q', output: 'a', label: 'pass' }] });
const GEVAL = {
  type: 'g-eval',
  name: 'helpful',
  criteria: 'Helps.',
  calibration: 'labels.yaml',
  min_kappa: 0.6,
};

async function agentWith(
  metric: Record<string, unknown>,
  judge?: Record<string, unknown>,
): Promise<LoadedAgent> {
  await writeFile(path.join(directory, 'labels.yaml'), LABELS);
  await writeFile(
    path.join(directory, 'agent.yaml'),
    stringify({
      name: 'calibrated',
      model: { provider: 'anthropic', name: 'claude-sonnet-4-5' },
      instructions: { inline: 'Help.' },
      evaluations: { ...(judge ? { model: judge } : {}), metrics: [metric] },
    }),
  );
  return loadAgent(path.join(directory, 'agent.yaml'), {
    env: { ANTHROPIC_API_KEY: 'x' },
    homeDir: directory,
  });
}

/** Saves a calibration of the agent's first metric as it is now, with this kappa. */
async function calibrate(
  agent: LoadedAgent,
  kappa: number | null = 0.8,
  startedAt = '2026-12-01T10:00:00.000Z',
) {
  const config = agent.config.evaluations?.metrics?.[0] as MetricConfig;
  const judge = judgeSettingsOf(agent.config);
  await saveCalibration(
    {
      schema_version: 1,
      kind: 'holodeck-calibration',
      calibration_id: `c-${startedAt.slice(11, 13)}`,
      started_at: startedAt,
      finished_at: startedAt,
      holodeck_version: '0',
      agent: { name: 'calibrated', file: 'agent.yaml' },
      judge: { provider: judge.model.provider, model: judge.model.name },
      samples: 1,
      confidence: 0.95,
      metrics: [
        {
          metric: 'helpful',
          type: 'g-eval',
          fingerprint: judgeFingerprint(judge, config),
          labels: {
            file: 'labels.yaml',
            hash: `sha256:${createHash('sha256').update(LABELS).digest('hex')}`,
            examples: 1,
          },
          judged: 1,
          confusion: { true_pass: 1, false_pass: 0, false_fail: 0, true_fail: 0 },
          agreement: null,
          kappa: {
            estimate: kappa,
            standard_error: null,
            interval:
              kappa === null
                ? null
                : {
                    estimate: kappa,
                    lower: kappa - 0.2,
                    upper: 1,
                    confidence: 0.95,
                    method: 'fleiss-cohen-everitt',
                  },
          },
          base_rate: null,
          judge_pass_rate: null,
          false_pass_rate: null,
          false_fail_rate: null,
          errored: 0,
          self_consistency: { samples: 1, examples: 1, flipped: 0, flip_rate: null },
          examples: [],
        },
      ],
    },
    calibrationsDirectory(agent.directory),
  );
}

describe('calibration status of judges with min_kappa', () => {
  it('is missing before any calibration, and says what to run', async () => {
    const agent = await agentWith(GEVAL);
    expect(await calibrationStatuses(agent)).toEqual([
      {
        metric: 'helpful',
        minKappa: 0.6,
        state: 'missing',
        message:
          'judge "helpful": never calibrated against its labels (min_kappa 0.6); run holodeck judge calibrate agent.yaml --metric "helpful"',
      },
    ]);
  });

  it('is ok at or above min_kappa, below it under, and follows the newest calibration', async () => {
    const agent = await agentWith(GEVAL);
    await calibrate(agent, 0.45, '2026-12-01T09:00:00.000Z');
    await calibrate(agent, 0.72, '2026-12-01T10:00:00.000Z');
    const [ok] = await calibrationStatuses(agent);
    expect(ok).toMatchObject({
      state: 'ok',
      message: 'judge "helpful": kappa 0.72 [0.52, 1.00] at 95% meets min_kappa 0.6 (calibration c-10)',
    });
    await calibrate(agent, 0.45, '2026-12-01T11:00:00.000Z');
    const [below] = await calibrationStatuses(agent);
    expect(below).toMatchObject({
      state: 'below',
      message: 'judge "helpful": kappa 0.45 [0.25, 1.00] at 95% is below min_kappa 0.6 (calibration c-11)',
    });
    await calibrate(agent, null, '2026-12-01T12:00:00.000Z');
    const [undefinedKappa] = await calibrationStatuses(agent);
    expect(undefinedKappa?.state).toBe('below');
    expect(undefinedKappa?.message).toContain('kappa is undefined in its calibration c-12');
  });

  // Every setting that decides the verdict makes the calibration stale; the others do not.
  const deciding: [string, Record<string, unknown>, Record<string, unknown>?][] = [
    ['criteria', { criteria: 'Helps a lot.' }],
    ['evaluation_steps', { evaluation_steps: ['Check it'] }],
    ['threshold', { threshold: 0.7 }],
    ['score_range', { score_range: [0, 10] }],
    ['samples', { samples: 3 }],
    ['strict_mode', { strict_mode: true }],
    ['the judge model', {}, { provider: 'anthropic', name: 'claude-haiku-4-5' }],
    ['the judge temperature', {}, { provider: 'anthropic', name: 'claude-sonnet-4-5', temperature: 0.5 }],
  ];
  it.each(deciding)('is stale when %s changes', async (_what, change, judge) => {
    const agent = await agentWith(GEVAL);
    await calibrate(agent);
    const changed = await agentWith({ ...GEVAL, ...change }, judge);
    const [status] = await calibrationStatuses(changed);
    expect(status?.state).toBe('stale');
    expect(status?.message).toBe(
      'judge "helpful": the judge model or the metric settings (criteria, steps, rubric, threshold, ...) changed since its calibration c-10; run holodeck judge calibrate agent.yaml --metric "helpful"',
    );
  });

  it('stays current when only min_kappa or weight changes, and is stale when the labels change', async () => {
    const agent = await agentWith(GEVAL);
    await calibrate(agent, 0.8);
    const reweighted = await agentWith({ ...GEVAL, weight: 2, min_kappa: 0.7 });
    expect((await calibrationStatuses(reweighted))[0]?.state).toBe('ok');
    await writeFile(
      path.join(directory, 'labels.yaml'),
      `${LABELS}  - {input: q2, output: b, label: fail}\n`,
    );
    const [status] = await calibrationStatuses(reweighted);
    expect(status?.state).toBe('stale');
    expect(status?.message).toContain('the labels changed since its calibration c-10');
  });

  it('checks nothing when no metric sets min_kappa', async () => {
    const { min_kappa: _none, ...plain } = GEVAL;
    expect(await calibrationStatuses(await agentWith(plain))).toEqual([]);
  });
});
