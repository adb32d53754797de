// What the viewer's optimization pages read (built on the server by build-view-optimization.ts
// from a trials.jsonl; the browser bundle imports only these types).
import type { ViewShownInterval } from './view-data.js';

/** Why a candidate was accepted or rejected (optimize/judge-candidate.ts's DecisionCode). */
export type ViewTrialDecisionCode = string;

/** One trial: the candidate, its train evaluation, and the decision on it. */
export interface ViewTrial {
  trial: number;
  id: string;
  origin: string;
  parent: string | null;
  /** What the candidate changes against agent.yaml (absent: the agent's own value). */
  changes: {
    instructions?: string;
    temperature?: number;
    max_turns?: number;
    model?: string;
    tool_descriptions?: Record<string, string>;
  };
  /** The instructions of the candidate it was derived from; null when not known (older files). */
  parent_instructions: string | null;
  rationale: string | null;
  started_at: string;
  duration_ms: number;
  /** Train pass rate over the finished attempts with its cluster-robust interval (cases as clusters). */
  pass_rate: ViewShownInterval;
  cases: number;
  attempts: number;
  cost_usd: number | null;
  kills: number;
  holds: number;
  /** null for trial 0 (the agent as written). */
  decision: {
    accepted: boolean;
    code: ViewTrialDecisionCode;
    message: string;
    improvement: ViewShownInterval;
  } | null;
  /** The best candidate after this trial. */
  best: string;
}

/** The winner confirmed on the holdout cases. */
export interface ViewHoldout {
  winner: string;
  baseline_pass_rate: ViewShownInterval;
  winner_pass_rate: ViewShownInterval;
  improvement: ViewShownInterval;
  agrees: boolean;
  message: string;
}

/** One `holodeck test optimize` run as its page shows it. */
export interface ViewOptimization {
  optimize_id: string;
  started_at: string;
  agent: { name: string; file: string };
  split: { train: string[]; holdout: string[]; seed: number; fraction: number };
  settings: {
    axes: string[];
    repeats: number;
    confidence: number;
    max_trials: number;
    max_cost_usd: number | null;
    max_time_seconds: number | null;
    replay: boolean;
  };
  trials: ViewTrial[];
  skipped: { move: number; at: string; reason: string }[];
  holdout: ViewHoldout | null;
  /** null while it runs or after it was interrupted (it continues with --resume). */
  finish: {
    finished_at: string;
    stopped: string;
    winner: string | null;
    optimized_file: string | null;
  } | null;
  /** Agent runs, judges and proposer calls whose price is known, over every trial and the holdout. */
  spent_usd: number;
}

/** An optimization in the runs page's list. */
export interface ViewOptimizationSummary {
  optimize_id: string;
  started_at: string;
  agent: string;
  trials: number;
  baseline_pass_rate: number | null;
  best: string | null;
  best_pass_rate: number | null;
  holdout_agrees: boolean | null;
  stopped: string | null;
}
