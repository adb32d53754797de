import type { LoadedAgent, OptimizeConfig } from '../config/index.js';
import type { JudgeClient } from '../evals/metric.js';
import type { CaseReport } from '../runner/report/run-report.js';
import type { Candidate } from './candidate.js';
import type { EvaluationSettings } from './evaluate-candidate.js';
import type { CaseSplit } from './split-cases.js';
import type { FinishLine, HoldoutLine, StartLine, TrialLine, TrialsLine } from './trials-file.js';

/** What the optimizer tells its caller as it goes (the CLI's progress). */
export type OptimizeEvent =
  | {
      type: 'evaluation-started';
      label: string;
      candidate: Candidate;
      split: 'train' | 'holdout';
      cases: number;
      attempts: number;
    }
  | { type: 'case-finished'; report: CaseReport }
  | { type: 'trial-finished'; line: TrialLine }
  | { type: 'skipped'; reason: string }
  | { type: 'holdout-finished'; line: HoldoutLine }
  | { type: 'note'; message: string };

/** Options of runOptimization. */
export interface OptimizeOptions {
  agent: LoadedAgent;
  config: OptimizeConfig;
  split: CaseSplit;
  /** The trials.jsonl to append to; its folder is the optimization's. */
  trialsFile: string;
  /** The start line (written by the caller when the optimization is new). */
  start: StartLine;
  /** Lines already saved (--resume): their trials are not run again. */
  previous: readonly TrialsLine[];
  maxTrials: number;
  maxCostUsd?: number;
  /** Epoch ms after which no new trial starts and a running one is stopped. */
  deadline?: number;
  confidence: number;
  /** Cases that must not break (`evaluations.gate.required`). */
  required: readonly string[] | 'all';
  proposer?: JudgeClient;
  /** What the proposer's calls cost since this was last called (USD), counted in maxCostUsd. */
  proposerCost?: () => number;
  evaluation: Omit<EvaluationSettings, 'signal' | 'maxCostUsd' | 'onCaseFinished'>;
  signal?: AbortSignal;
  onEvent?: (event: OptimizeEvent) => void;
}

/** What an optimization ended with. */
export interface OptimizeResult {
  baseline: TrialLine;
  trials: TrialLine[];
  winner?: TrialLine;
  holdout?: HoldoutLine;
  finish: FinishLine;
  spentUsd: number;
}
