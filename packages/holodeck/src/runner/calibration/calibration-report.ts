import { z } from 'zod';
import type { AgreementStatistics, SelfConsistency, Verdict } from './agreement-statistics.js';

/** Version of the saved calibration format; a reader refuses others. */
export const CALIBRATION_SCHEMA_VERSION = 1;

/** One labelled example as the judge saw it. */
export interface CalibratedExample {
  /** 0-based index in the labels file's `examples`. */
  index: number;
  /** Its line in the labels file. */
  line: number;
  label: Verdict;
  /** The verdict `holodeck test` would give: the first judgement; `error` when it could not run. */
  verdict: Verdict | 'error';
  /** Every judgement's verdict, the first first (self-consistency). */
  verdicts: (Verdict | 'error')[];
  /** Every judgement's score in [0, 1]. */
  scores: number[];
  /** The human's score, when the label gives one. */
  human_score?: number;
  /** The first judgement's reason (or error). */
  reason: string;
}

/** A judge metric measured against its labels. */
export interface MetricCalibration extends AgreementStatistics {
  /** The metric's name (its `name`, else its type). */
  metric: string;
  type: string;
  /** What decided the verdicts (judgeFingerprint): a later change of them makes this stale. */
  fingerprint: string;
  labels: { file: string; hash: string; examples: number };
  min_kappa?: number;
  /** Examples left out of the statistics because the judge failed on them. */
  errored: number;
  self_consistency: SelfConsistency;
  /** Mean |judge score − human score| over examples with a human score; absent without any. */
  mean_score_difference?: number;
  examples: CalibratedExample[];
}

/** A saved `holodeck judge calibrate`: saved like a run under `.holodeck/calibrations/`. */
export interface CalibrationReport {
  schema_version: typeof CALIBRATION_SCHEMA_VERSION;
  kind: 'holodeck-calibration';
  calibration_id: string;
  started_at: string;
  finished_at: string;
  holodeck_version: string;
  agent: { name: string; file: string };
  judge: { provider: string; model: string };
  samples: number;
  confidence: number;
  /** Stopped by Ctrl+C before every example was judged: not a calibration `holodeck test` trusts. */
  interrupted?: boolean;
  metrics: MetricCalibration[];
}

const SavedInterval = z.object({
  estimate: z.number(),
  lower: z.number(),
  upper: z.number(),
  confidence: z.number(),
});

/** The parts of a saved calibration that `holodeck test`, the gate and the viewer read, checked. */
export const SavedCalibrationSchema = z.object({
  schema_version: z.literal(CALIBRATION_SCHEMA_VERSION),
  kind: z.literal('holodeck-calibration'),
  calibration_id: z.string().min(1),
  started_at: z.string().min(1),
  interrupted: z.boolean().optional(),
  judge: z.object({ provider: z.string(), model: z.string() }),
  samples: z.number(),
  metrics: z.array(
    z.object({
      metric: z.string(),
      type: z.string(),
      fingerprint: z.string(),
      labels: z.object({ file: z.string(), hash: z.string(), examples: z.number() }),
      examples: z.array(z.unknown()),
      min_kappa: z.number().optional(),
      judged: z.number(),
      errored: z.number(),
      kappa: z.object({
        estimate: z.number().nullable(),
        interval: SavedInterval.nullable(),
      }),
      agreement: SavedInterval.nullable(),
      false_pass_rate: SavedInterval.nullable(),
      false_fail_rate: SavedInterval.nullable(),
      confusion: z.object({
        true_pass: z.number(),
        false_pass: z.number(),
        false_fail: z.number(),
        true_fail: z.number(),
      }),
      self_consistency: z.object({ samples: z.number(), examples: z.number(), flipped: z.number() }),
    }),
  ),
});
/** A saved calibration as read back. */
export type SavedCalibration = z.infer<typeof SavedCalibrationSchema>;
