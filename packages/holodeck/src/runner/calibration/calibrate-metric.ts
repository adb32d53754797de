import type { LabelledExample, LabelsFile } from '../../config/index.js';
import type { JudgeClient, Metric, MetricInput, MetricOutcome } from '../../evals/metric.js';
import { agreementStatistics, confusionOf, selfConsistency, type Verdict } from './agreement-statistics.js';
import type { CalibratedExample, MetricCalibration } from './calibration-report.js';

/** What `calibrateMetric` needs besides the metric. */
export interface CalibrateMetricOptions {
  judge: JudgeClient;
  labels: LabelsFile;
  /** The labels file as the report names it (relative to agent.yaml). */
  labelsPath: string;
  fingerprint: string;
  minKappa?: number | undefined;
  /** Judgements per example; the first is the one `holodeck test` makes. */
  samples: number;
  confidence: number;
  /** Examples judged at a time. */
  concurrency: number;
  signal?: AbortSignal | undefined;
  onExample?: ((example: CalibratedExample) => void) | undefined;
}

/** A labelled example as a metric's input: the fields a test case would give it. */
export function exampleInput(example: LabelledExample): MetricInput {
  const context = example.retrieval_context ?? example.context;
  return {
    input: example.input,
    response: example.output,
    ...(example.expected_output === undefined ? {} : { groundTruth: example.expected_output }),
    ...(context === undefined ? {} : { context }),
    toolCalls: [],
    toolResults: [],
    durationMs: 0,
    costUsd: null,
    numTurns: 1,
    tokenUsage: {
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
      cache_read_tokens: 0,
      cache_creation_tokens: 0,
    },
  };
}

function verdictOf(outcome: MetricOutcome): Verdict | 'error' {
  if (outcome.error !== undefined) return 'error';
  return outcome.passed ? 'pass' : 'fail';
}

async function judgeExample(
  metric: Metric,
  example: LabelledExample,
  index: number,
  options: CalibrateMetricOptions,
): Promise<CalibratedExample> {
  const input = exampleInput(example);
  const outcomes: MetricOutcome[] = [];
  // One after another: the first judgement derives and caches what the others reuse (G-Eval steps).
  for (let sample = 0; sample < options.samples; sample += 1) {
    options.signal?.throwIfAborted();
    outcomes.push(
      await metric.evaluate(input, {
        judge: options.judge,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(sample === 0 ? {} : { sample }),
      }),
    );
  }
  const first = outcomes[0];
  if (first === undefined) throw new Error('calibrateMetric: samples must be at least 1');
  return {
    index,
    line: options.labels.lines[index] ?? 1,
    label: example.label,
    verdict: verdictOf(first),
    verdicts: outcomes.map(verdictOf),
    scores: outcomes.map((outcome) => outcome.score),
    ...(example.score === undefined ? {} : { human_score: example.score }),
    reason: first.reason,
  };
}

/**
 * Judges every labelled example of one metric `samples` times and measures the first verdicts
 * against the human labels (agreement, kappa, confusion matrix, error rates) and the verdicts of
 * each example against each other (self-consistency). An example the judge fails on is counted
 * as errored and left out of the statistics. An abort of `signal` rethrows.
 */
export async function calibrateMetric(
  metric: Metric,
  options: CalibrateMetricOptions,
): Promise<MetricCalibration> {
  const { examples } = options.labels;
  const results: CalibratedExample[] = new Array(examples.length);
  let next = 0;
  const worker = async () => {
    while (next < examples.length) {
      const index = next++;
      const example = examples[index];
      if (example === undefined) continue;
      const result = await judgeExample(metric, example, index, options);
      results[index] = result;
      options.onExample?.(result);
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(options.concurrency, examples.length)) }, worker),
  );
  const judged = results.filter((result) => result.verdict !== 'error');
  const pairs = judged.map((result) => ({ human: result.label, judge: result.verdict as Verdict }));
  const statistics = agreementStatistics(confusionOf(pairs), options.confidence);
  const consistent = results
    .filter((result) => !result.verdicts.includes('error'))
    .map((result) => result.verdicts as Verdict[]);
  const scored = judged.filter((result) => result.human_score !== undefined);
  const difference =
    scored.length === 0
      ? undefined
      : scored.reduce(
          (sum, result) => sum + Math.abs((result.scores[0] ?? 0) - (result.human_score ?? 0)),
          0,
        ) / scored.length;
  return {
    metric: metric.name,
    type: metric.type,
    fingerprint: options.fingerprint,
    labels: { file: options.labelsPath, hash: options.labels.hash, examples: examples.length },
    ...(options.minKappa === undefined ? {} : { min_kappa: options.minKappa }),
    ...statistics,
    errored: results.length - judged.length,
    self_consistency: selfConsistency(consistent, options.samples, options.confidence),
    ...(difference === undefined ? {} : { mean_score_difference: difference }),
    examples: results,
  };
}
