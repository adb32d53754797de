import type { LoadedAgent } from '../config/index.js';
import type { Recorder } from '../recording/recorder.js';
import type { CaseReport } from '../runner/report/run-report.js';
import { runTestSuite } from '../runner/run-test-suite.js';
import { applyCandidate, type Candidate } from './candidate.js';
import { type Evaluation, evaluationOf } from './evaluation.js';

/** How every candidate is run. */
export interface EvaluationSettings {
  repeats: number;
  concurrency: number;
  /** A fresh recorder per evaluation (--replay); undefined runs live. */
  openRecorder?: () => Promise<Recorder | undefined>;
  signal?: AbortSignal;
  /** The most this one evaluation may spend (what is left of --max-cost). */
  maxCostUsd?: number;
  onNotice?: (message: string) => void;
  onCaseFinished?: (report: CaseReport) => void;
}

/**
 * Runs a candidate on some cases of the suite, `repeats` attempts each, through `runTestSuite`
 * (the same runner, judges, governance and recordings as `holodeck test`). Under --replay a
 * request with no recording is counted, never sent live.
 */
export async function evaluateCandidate(
  agent: LoadedAgent,
  candidate: Candidate,
  cases: readonly string[],
  split: 'train' | 'holdout',
  settings: EvaluationSettings,
): Promise<Evaluation> {
  const recorder = await settings.openRecorder?.();
  const report = await runTestSuite(applyCandidate(agent, candidate.changes), {
    caseNames: cases,
    repeat: settings.repeats,
    concurrency: settings.concurrency,
    ...(settings.signal ? { signal: settings.signal } : {}),
    ...(recorder ? { recorder } : {}),
    ...(settings.maxCostUsd !== undefined ? { maxCostUsd: settings.maxCostUsd } : {}),
    ...(settings.onNotice ? { onNotice: settings.onNotice } : {}),
    ...(settings.onCaseFinished ? { onCaseFinished: settings.onCaseFinished } : {}),
  });
  const evaluation = evaluationOf(report, split, recorder?.unmatchedRequests().length ?? 0);
  return report.budget?.reached ? { ...evaluation, interrupted: true } : evaluation;
}
