import { listCalibrations } from './calibration-store.js';

/** A proportion with its interval, as the viewer shows it. */
export interface ShownInterval {
  estimate: number;
  lower: number;
  upper: number;
  confidence: number;
}

/** The newest calibration of one judge metric, flattened for the viewer. */
export interface LatestCalibration {
  metric: string;
  type: string;
  calibration_id: string;
  started_at: string;
  judge_model: string;
  samples: number;
  labels_file: string;
  examples: number;
  judged: number;
  errored: number;
  min_kappa?: number;
  kappa: number | null;
  kappa_interval: ShownInterval | null;
  agreement: ShownInterval | null;
  false_pass_rate: ShownInterval | null;
  false_fail_rate: ShownInterval | null;
  confusion: { true_pass: number; false_pass: number; false_fail: number; true_fail: number };
  flipped: number;
}

/** The newest finished calibration of each judge metric in `dir`, by metric name. */
export async function latestCalibrations(dir: string): Promise<LatestCalibration[]> {
  const { calibrations } = await listCalibrations(dir);
  const seen = new Map<string, LatestCalibration>();
  for (const calibration of calibrations)
    for (const metric of calibration.metrics) {
      if (seen.has(metric.metric)) continue;
      seen.set(metric.metric, {
        metric: metric.metric,
        type: metric.type,
        calibration_id: calibration.calibration_id,
        started_at: calibration.started_at,
        judge_model: calibration.judge.model,
        samples: calibration.samples,
        labels_file: metric.labels.file,
        examples: metric.labels.examples,
        judged: metric.judged,
        errored: metric.errored,
        ...(metric.min_kappa === undefined ? {} : { min_kappa: metric.min_kappa }),
        kappa: metric.kappa.estimate,
        kappa_interval: metric.kappa.interval,
        agreement: metric.agreement,
        false_pass_rate: metric.false_pass_rate,
        false_fail_rate: metric.false_fail_rate,
        confusion: metric.confusion,
        flipped: metric.self_consistency.flipped,
      });
    }
  return [...seen.values()].sort((a, b) => a.metric.localeCompare(b.metric));
}
