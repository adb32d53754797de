// The JSON the pages are drawn from, shared by the server (src/view/*.ts, which builds it from
// saved runs) and the browser (src/view/client/, src/view/pages/). Standalone on purpose: the
// browser build must not pull in Node code, so nothing here imports from outside src/view/.

import type { ViewOptimizationSummary } from './view-optimization.js';

/** Token counts of a run, a case or an attempt. */
export interface ViewTokens {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
}

/** One metric's outcome: score, pass mark, and the reason in full (a judge's rationale). */
export interface ViewMetric {
  name: string;
  type: string;
  score: number;
  threshold?: number;
  passed: boolean;
  reason: string;
  error?: string;
  weight?: number;
}

export interface ViewToolCall {
  name: string;
  arguments: Record<string, unknown>;
  call_id: string;
}

export interface ViewToolResult {
  call_id: string;
  result: string;
  is_error: boolean;
}

export interface ViewTurn {
  input: string;
  response: string;
  tool_calls: ViewToolCall[];
  tool_results: ViewToolResult[];
  metrics: ViewMetric[];
  passed: boolean;
  error?: string;
}

export interface ViewVerdict {
  tool: string;
  action_type: string;
  verdict: 'pass' | 'kill' | 'hold';
  hold_status?: string;
  rule_ids: string[];
  rationale: string;
}

export interface ViewRefusal {
  tool: string;
  action_type: string;
  source: string;
  rationale: string;
}

export interface ViewGovernance {
  session_id: string;
  killed: boolean;
  verdicts: ViewVerdict[];
  refusals?: ViewRefusal[];
}

export interface ViewAttempt {
  attempt: number;
  passed: boolean;
  error?: string;
  response: string;
  tool_calls: ViewToolCall[];
  tool_results: ViewToolResult[];
  metrics: ViewMetric[];
  score: number;
  token_usage: ViewTokens;
  cost_usd: number | null;
  num_turns: number;
  duration_ms: number;
  turns?: ViewTurn[];
  governance?: ViewGovernance;
  interrupted?: boolean;
}

/** A pass-rate interval at its confidence level. */
export interface ViewInterval {
  lower: number;
  upper: number;
  confidence: number;
  method: string;
}

/** A case of a run, without the report's copies of its first attempt. */
export interface ViewCase {
  name: string;
  tags: string[];
  input: string;
  ground_truth?: string;
  passed: boolean;
  errored: boolean;
  interrupted?: boolean;
  error?: string;
  pass_rate: number;
  min_pass_rate: number;
  /** Attempts graded to the end (absent in older reports: then every attempt). */
  finished_attempts?: number;
  /** The interval of pass_rate; null below 2 finished attempts; absent in older reports. */
  pass_interval?: ViewInterval | null;
  pass_at_k: number;
  pass_pow_k: number;
  score: number;
  token_usage: ViewTokens;
  duration_ms: number;
  attempts: ViewAttempt[];
}

export interface ViewGit {
  commit: string;
  branch: string | null;
  dirty: boolean;
}

export interface ViewSummary {
  total: number;
  passed: number;
  failed: number;
  errored: number;
  interrupted?: number;
  pass_rate: number;
  duration_ms: number;
  token_usage: ViewTokens;
  cost_usd: number | null;
  /** Why cost_usd is null (a local model, a model without a price). */
  cost_unknown_reason?: string;
  /** cost_usd / passed cases; null when unknown or no case passed (absent in older reports). */
  cost_per_passed_case_usd?: number | null;
  /** The judge's spend and calls, and agent + judge (absent in older reports). */
  judge_cost_usd?: number | null;
  judge_cost_unknown_reason?: string;
  judge_calls?: { billed: number; cached: number };
  total_cost_usd?: number | null;
  /** Finished attempts of every case and their pass rate, clustered by case (absent in older reports). */
  attempts?: { finished: number; passed: number; pass_interval: ViewInterval | null };
}

/** What the runs page lists about a run (and the header of a run page). */
export interface ViewRunHeader {
  run_id: string;
  started_at: string;
  finished_at: string;
  agent: {
    name: string;
    model: string;
    provider: string;
    config_hash: string | null;
    suite_hash?: string;
    instructions_hash: string | null;
    instructions_version?: string;
  };
  git: ViewGit | null;
  versions: { holodeck: string; node: string; sdk: string | null; cli: string | null } | null;
  /** How the run selected and repeated its cases, as flags (`--filter x`, `--shard 1/2`). */
  selection: string[];
  interrupted: boolean;
  /** `--retry-errored` / `--resume`: the saved run this one continues, and how. */
  continued_from?: { run_id: string; mode: 'retry-errored' | 'resume' };
  /** Set while the run is going: how many cases it will have. */
  planned_cases: number | null;
  summary: ViewSummary;
}

/** A run with every case and attempt. */
export interface ViewRun extends ViewRunHeader {
  /** The redacted agent configuration, for the run page's "configuration" section. */
  config: Record<string, unknown> | null;
  /** In a matrix run each case is named `<case> [<variant>]`, so its page has an address of its own. */
  cases: ViewCase[];
  /** A matrix run: its variants and the case × variant grid (runner/report/matrix-grid.ts). */
  matrix?: ViewMatrix;
}

/** The grid of a matrix run as its page shows it. */
export interface ViewMatrix {
  variants: { name: string; model: string; provider: string; backend: string; summary: ViewSummary }[];
  rows: {
    name: string;
    /** One per variant, in order; null when the variant did not run the case. */
    cells: (ViewMatrixCell | null)[];
  }[];
}

/** One case under one variant. */
export interface ViewMatrixCell {
  /** The case's name in `cases` (`<case> [<variant>]`), for its link. */
  case_name: string;
  status: 'pass' | 'fail' | 'error' | 'stopped';
  passed: number;
  finished: number;
  pass_rate: number;
  score: number;
  cost_usd: number | null;
  latency_ms: number;
  best: boolean;
}

/** A run in the runs list, with what changed since the run of the same agent before it. */
export interface ViewRunListEntry extends ViewRunHeader {
  config_changed: boolean;
  instructions_changed: boolean;
  /** The suite (test cases, metrics, thresholds) differs from the previous run's. */
  suite_changed?: boolean;
  /** With suite_changed: the case names the previous run's suite did not have. */
  suite_added?: string[];
  /** With suite_changed: the case names of the previous run's suite this one lacks. */
  suite_removed?: string[];
}

/** A saved file that could not be read as a run. */
export interface ViewUnreadable {
  file: string;
  message: string;
}

/** A proportion with its interval. */
export interface ViewShownInterval {
  estimate: number;
  lower: number;
  upper: number;
  confidence: number;
}

/** The newest calibration of one judge metric (runner/calibration/latest-calibrations.ts builds it). */
export interface ViewCalibration {
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
  kappa_interval: ViewShownInterval | null;
  agreement: ViewShownInterval | null;
  false_pass_rate: ViewShownInterval | null;
  false_fail_rate: ViewShownInterval | null;
  confusion: { true_pass: number; false_pass: number; false_fail: number; true_fail: number };
  flipped: number;
}

export interface ViewRunList {
  runs: ViewRunListEntry[];
  unreadable: ViewUnreadable[];
  /** The newest calibration of each judge metric (`holodeck judge calibrate`); served pages only. */
  calibrations?: ViewCalibration[];
  /** `holodeck test optimize` runs, newest first; served pages only. */
  optimizations?: ViewOptimizationSummary[];
}

export type ViewCaseChange = 'regressed' | 'improved' | 'unchanged' | 'new' | 'removed' | 'not-compared';
export type ViewMetricChange = 'newly-failing' | 'newly-passing' | 'unchanged' | 'new' | 'removed';

export interface ViewMetricComparison {
  name: string;
  change: ViewMetricChange;
  baselineScore?: number;
  currentScore?: number;
  delta?: number;
}

export interface ViewCaseComparison {
  name: string;
  change: ViewCaseChange;
  baselineStatus?: string;
  currentStatus?: string;
  metrics: ViewMetricComparison[];
}

/** Two runs side by side: the baseline (older, by default the run before) and the current one. */
export interface ViewComparison {
  baseline: ViewRunHeader;
  current: ViewRunHeader;
  cases: ViewCaseComparison[];
  counts: Record<ViewCaseChange, number>;
  notSelected: string[];
  differences: string[];
}

/** What a static report file carries: one run, and its comparison when `--baseline` was given. */
export interface ViewStaticData {
  mode: 'static';
  run: ViewRun;
  comparison: ViewComparison | null;
}

/** What a served page carries: only where to fetch from (the data comes from /api/). */
export interface ViewServedData {
  mode: 'served';
}

export type ViewBootData = ViewStaticData | ViewServedData;
