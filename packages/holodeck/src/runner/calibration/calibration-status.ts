import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadedAgent, MetricConfig } from '../../config/index.js';
import { JUDGE_METRIC_TYPES } from '../../evals/create-metric.js';
import { metricName } from '../../evals/metric-outcome.js';
import { calibrationsDirectory, listCalibrations } from './calibration-store.js';
import { judgeFingerprint, judgeSettingsOf } from './judge-fingerprint.js';

/** Whether a judge metric with `min_kappa` can be trusted, and why not. */
export interface CalibrationStatus {
  metric: string;
  minKappa: number;
  /** ok: its last calibration is current and its kappa at least min_kappa. */
  state: 'ok' | 'missing' | 'stale' | 'below';
  /** In words: `judge "tone": kappa 0.41 [0.12, 0.70] at 95% is below min_kappa 0.6 (calibration 2026-…)`. */
  message: string;
}

/** The judge metrics of `evaluations.metrics` that set min_kappa. */
export function metricsWithMinKappa(
  agent: LoadedAgent,
): { config: MetricConfig & { calibration?: string; min_kappa: number } }[] {
  const found: { config: MetricConfig & { calibration?: string; min_kappa: number } }[] = [];
  for (const config of agent.config.evaluations?.metrics ?? []) {
    if (!JUDGE_METRIC_TYPES.has(config.type)) continue;
    if ('min_kappa' in config && typeof config.min_kappa === 'number')
      found.push({ config: { ...config, min_kappa: config.min_kappa } });
  }
  return found;
}

async function hashOf(file: string): Promise<string | undefined> {
  try {
    return `sha256:${createHash('sha256')
      .update(await readFile(file, 'utf8'))
      .digest('hex')}`;
  } catch {
    return undefined;
  }
}

const percent = (value: number) => `${Number((value * 100).toFixed(1))}%`;

/**
 * The calibration state of every judge metric that sets `min_kappa`: its newest finished
 * calibration (`.holodeck/calibrations/`) must exist, have been made with the same deciding
 * settings (judgeFingerprint: judge model, rubric, steps, threshold, ...) and the same labels, and
 * have a kappa (its point estimate) of at least min_kappa. Empty when no metric sets min_kappa.
 */
export async function calibrationStatuses(agent: LoadedAgent): Promise<CalibrationStatus[]> {
  const wanted = metricsWithMinKappa(agent);
  if (wanted.length === 0) return [];
  const { calibrations } = await listCalibrations(calibrationsDirectory(agent.directory));
  const judge = judgeSettingsOf(agent.config);
  const statuses: CalibrationStatus[] = [];
  for (const { config } of wanted) {
    const name = metricName(config);
    const minKappa = config.min_kappa;
    const status = (state: CalibrationStatus['state'], message: string) =>
      statuses.push({ metric: name, minKappa, state, message: `judge "${name}": ${message}` });
    const calibration = calibrations.find((entry) => entry.metrics.some((metric) => metric.metric === name));
    const measured = calibration?.metrics.find((metric) => metric.metric === name);
    const run = `holodeck judge calibrate ${path.basename(agent.file)} --metric "${name}"`;
    if (calibration === undefined || measured === undefined) {
      status('missing', `never calibrated against its labels (min_kappa ${minKappa}); run ${run}`);
      continue;
    }
    const since = `calibration ${calibration.calibration_id}`;
    const changes: string[] = [];
    if (measured.fingerprint !== judgeFingerprint(judge, config))
      changes.push('the judge model or the metric settings (criteria, steps, rubric, threshold, ...)');
    const labelsFile =
      config.calibration === undefined ? undefined : path.resolve(agent.directory, config.calibration);
    const labelsHash = labelsFile === undefined ? undefined : await hashOf(labelsFile);
    if (labelsHash !== measured.labels.hash) changes.push('the labels');
    if (changes.length > 0) {
      status('stale', `${changes.join(' and ')} changed since its ${since}; run ${run}`);
      continue;
    }
    const kappa = measured.kappa.estimate;
    const interval = measured.kappa.interval;
    const spread = interval
      ? ` [${interval.lower.toFixed(2)}, ${interval.upper.toFixed(2)}] at ${percent(interval.confidence)}`
      : '';
    if (kappa === null) {
      status(
        'below',
        `kappa is undefined in its ${since} (human and judge gave every example the same verdict): label examples of both kinds`,
      );
      continue;
    }
    if (kappa < minKappa) {
      status('below', `kappa ${kappa.toFixed(2)}${spread} is below min_kappa ${minKappa} (${since})`);
      continue;
    }
    status('ok', `kappa ${kappa.toFixed(2)}${spread} meets min_kappa ${minKappa} (${since})`);
  }
  return statuses;
}
