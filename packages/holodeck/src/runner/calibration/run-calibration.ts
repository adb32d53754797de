import path from 'node:path';
import { type LoadedAgent, loadLabelsFile, type MetricConfig } from '../../config/index.js';
import { ConfigError, UsageError } from '../../errors.js';
import { createMetric, JUDGE_METRIC_TYPES } from '../../evals/create-metric.js';
import type { JudgeClient } from '../../evals/metric.js';
import { metricName } from '../../evals/metric-outcome.js';
import { holodeckVersion } from '../../holodeck-version.js';
import { calibrateMetric } from './calibrate-metric.js';
import type { CalibratedExample, CalibrationReport, MetricCalibration } from './calibration-report.js';
import { CALIBRATION_SCHEMA_VERSION } from './calibration-report.js';
import { newCalibrationId } from './calibration-store.js';
import { judgeFingerprint, judgeSettingsOf } from './judge-fingerprint.js';

/** Options of `runCalibration` (`holodeck judge calibrate`). */
export interface CalibrationOptions {
  judge: JudgeClient;
  /** Only this metric (its name, else its type). */
  metric?: string | undefined;
  /** Judgements per example (self-consistency); default 3. */
  samples?: number | undefined;
  /** Examples judged at a time; default 4. */
  concurrency?: number | undefined;
  signal?: AbortSignal | undefined;
  onMetricStarted?: ((metric: string, examples: number) => void) | undefined;
  onExample?: ((metric: string, example: CalibratedExample) => void) | undefined;
}

/** Default judgements per example: enough to see a judge flip, cheap enough to run on every change. */
export const DEFAULT_CALIBRATION_SAMPLES = 3;

type CalibratedConfig = MetricConfig & { calibration: string; min_kappa?: number };

/** The judge metrics of `evaluations.metrics` that name a labels file, or a UsageError saying what to add. */
export function calibratedMetrics(
  agent: LoadedAgent,
  only?: string,
): { config: CalibratedConfig; index: number }[] {
  const metrics = agent.config.evaluations?.metrics ?? [];
  const judges = metrics
    .map((config, index) => ({ config, index }))
    .filter(({ config }) => JUDGE_METRIC_TYPES.has(config.type));
  const labelled = judges.flatMap(({ config, index }) =>
    'calibration' in config && typeof config.calibration === 'string'
      ? [{ config: { ...config, calibration: config.calibration }, index }]
      : [],
  );
  if (only !== undefined) {
    const chosen = labelled.filter(({ config }) => metricName(config) === only);
    if (chosen.length > 0) return chosen;
    const unlabelled = judges.some(({ config }) => metricName(config) === only);
    const names = labelled.map(({ config }) => `"${metricName(config)}"`);
    throw new UsageError(
      '--metric',
      unlabelled
        ? `judge metric "${only}" has no calibration file`
        : `no judge metric named "${only}" in evaluations.metrics`,
      unlabelled
        ? `add calibration: labels.yaml to it in agent.yaml (examples with input, output and label: pass | fail)`
        : names.length
          ? `the calibrated judge metrics are ${names.join(', ')}`
          : 'no judge metric of evaluations.metrics names a calibration file yet',
    );
  }
  if (labelled.length === 0)
    throw new ConfigError([
      {
        file: agent.file,
        path: 'evaluations.metrics',
        message: 'no judge metric names a calibration file, so there is nothing to calibrate',
        hint: 'add calibration: labels.yaml to a judge metric (g-eval, rubric, faithfulness, answer_relevancy, contextual_*), the file holding examples: [{input, output, label: pass | fail}]',
      },
    ]);
  return labelled;
}

/**
 * Calibrates the judge metrics of an agent against their labels files: loads every labels file
 * first (any problem stops everything before a judge is paid), then judges each example
 * `samples` times. Returns the report; interrupted (and incomplete) when `signal` aborted.
 */
export async function runCalibration(
  agent: LoadedAgent,
  options: CalibrationOptions,
): Promise<CalibrationReport> {
  const started = new Date();
  const samples = options.samples ?? DEFAULT_CALIBRATION_SAMPLES;
  const confidence = agent.config.evaluations?.confidence ?? 0.95;
  const judge = judgeSettingsOf(agent.config);
  const judgeModel = judge.model;
  const chosen = calibratedMetrics(agent, options.metric);
  const prepared = [];
  for (const { config, index } of chosen) {
    const file = path.resolve(agent.directory, config.calibration);
    const labels = await loadLabelsFile(file, `evaluations.metrics[${index}]`);
    prepared.push({ config, labels, metric: await createMetric(config, agent.directory) });
  }
  const metrics: MetricCalibration[] = [];
  let interrupted = false;
  for (const { config, labels, metric } of prepared) {
    options.onMetricStarted?.(metric.name, labels.examples.length);
    try {
      metrics.push(
        await calibrateMetric(metric, {
          judge: options.judge,
          labels,
          labelsPath: path.relative(agent.directory, labels.file) || labels.file,
          fingerprint: judgeFingerprint(judge, config),
          minKappa: config.min_kappa,
          samples,
          confidence,
          concurrency: options.concurrency ?? 4,
          signal: options.signal,
          onExample: (example) => options.onExample?.(metric.name, example),
        }),
      );
    } catch (error) {
      if (!options.signal?.aborted) throw error;
      interrupted = true;
      break;
    }
  }
  return {
    schema_version: CALIBRATION_SCHEMA_VERSION,
    kind: 'holodeck-calibration',
    calibration_id: newCalibrationId(started),
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    holodeck_version: holodeckVersion(),
    agent: { name: agent.config.name, file: path.basename(agent.file) },
    judge: { provider: judgeModel.provider, model: judgeModel.name },
    samples,
    confidence,
    ...(interrupted ? { interrupted: true } : {}),
    metrics,
  };
}
