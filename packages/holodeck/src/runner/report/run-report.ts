import type { GovernanceSummary, TokenUsage, ToolCall, ToolResult } from '../../backends/contract/index.js';
import type { MetricOutcome } from '../../evals/metric.js';

/** Version of the JSON report format; bump on any incompatible change and keep a fixture per version. */
export const RUN_REPORT_SCHEMA_VERSION = 2;

/** The git state of the agent's folder when the run started. */
export interface GitState {
  /** Full commit id of HEAD. */
  commit: string;
  /** The checked-out branch; null on a detached HEAD. */
  branch: string | null;
  /** True when tracked files differ from HEAD (untracked files do not count). */
  dirty: boolean;
}

/** Versions of what made the run. */
export interface RunVersions {
  holodeck: string;
  node: string;
  /** The model SDK of the agent's backend (`@anthropic-ai/claude-agent-sdk`, `ai`); null when unknown. */
  sdk: { name: string; version: string } | null;
  /** The Claude Code CLI the SDK ships; null on other backends or a binary of HOLODECK_CLAUDE_PATH. */
  cli: string | null;
}

/** Where and with what a run was made, so runs can be told apart (null in reports of format 1). */
export interface RunEnvironment {
  /** Null when the agent's folder is not in a git work tree (or git is not installed). */
  git: GitState | null;
  versions: RunVersions;
}

/** The agent a run tested. */
export interface RunAgent {
  name: string;
  /** Absolute path of agent.yaml. */
  file: string;
  model: string;
  provider: string;
  /**
   * `sha256:<hex>` of `config` (canonical JSON): equal hashes, equal agent configuration.
   * Null in reports of format 1.
   */
  config_hash: string | null;
  /**
   * agent.yaml as loaded, without its test cases, with secrets redacted (API keys, tokens,
   * passwords, headers, MCP env values, and every value of a credential variable) and paths
   * relative to the agent's folder. Null in reports of format 1.
   */
  config: Record<string, unknown> | null;
  /** `sha256:<hex>` of the instructions text; null in reports of format 1. */
  instructions_hash: string | null;
  /** The `version:` of the instructions file's front matter, when it has one. */
  instructions_version?: string;
}

/** One agent run of a test case (a case with repeat: 3 has three attempts). */
export interface CaseAttempt {
  /** 1-based attempt number. */
  attempt: number;
  passed: boolean;
  /** Why the agent run itself failed (API error, crash, timeout); undefined when it ran. */
  error?: string;
  /** The agent's final response (the last turn's, for a conversation). */
  response: string;
  tool_calls: ToolCall[];
  tool_results: ToolResult[];
  metrics: MetricOutcome[];
  /** Weighted mean of the metric scores (metric `weight`, default 1); 0 when the run failed. */
  score: number;
  token_usage: TokenUsage;
  /** USD; null when the backend could not know it. */
  cost_usd: number | null;
  num_turns: number;
  duration_ms: number;
  /** Per-turn details of a multi-turn case. */
  turns?: TurnRecord[];
  /** Novarch's verdicts in this attempt, when the agent is governed. */
  governance?: GovernanceSummary;
  /** True when the run was interrupted (Ctrl+C, SIGTERM) while this attempt ran. */
  interrupted?: boolean;
}

/** One turn of a multi-turn case. */
export interface TurnRecord {
  input: string;
  response: string;
  tool_calls: ToolCall[];
  tool_results: ToolResult[];
  metrics: MetricOutcome[];
  passed: boolean;
  error?: string;
}

/** The outcome of one test case over all its attempts. */
export interface CaseReport {
  name: string;
  tags: string[];
  /** The user message (the first turn's, for a conversation). */
  input: string;
  ground_truth?: string;
  /** Passed = pass rate ≥ min_pass_rate (1 by default: every attempt passed). */
  passed: boolean;
  /** True when every attempt failed to run (no attempt produced an answer to grade). */
  errored: boolean;
  /**
   * True when the run was interrupted before this case finished (an attempt was stopped or never
   * started): then neither passed nor errored.
   */
  interrupted?: boolean;
  /** First run error, when any. */
  error?: string;
  /** Attempts that passed / attempts. */
  pass_rate: number;
  min_pass_rate: number;
  /** pass@k: probability at least one of k attempts passes (k = attempts). */
  pass_at_k: number;
  /** pass^k: probability all k attempts pass. */
  pass_pow_k: number;
  attempts: CaseAttempt[];
  /** Convenience copies of the first attempt, for readers that ignore repeats. */
  response: string;
  tool_calls: ToolCall[];
  tool_results: ToolResult[];
  metrics: MetricOutcome[];
  /** Mean of the attempts' scores. */
  score: number;
  token_usage: TokenUsage;
  num_turns: number;
  duration_ms: number;
}

/** Totals of a run. */
export interface RunSummary {
  total: number;
  passed: number;
  failed: number;
  errored: number;
  /** Cases the interruption kept from finishing (absent when the run was not interrupted). */
  interrupted?: number;
  pass_rate: number;
  duration_ms: number;
  token_usage: TokenUsage;
  /** USD; null when the cost of some attempt is unknown. */
  cost_usd: number | null;
}

/** The whole report of one `holodeck test` run (what `--format json` writes and `.holodeck/runs/` keeps). */
export interface RunReport {
  schema_version: typeof RUN_REPORT_SCHEMA_VERSION;
  /** Unique id of the run, e.g. `2026-11-30T01-02-03Z-ab12cd`. */
  run_id: string;
  started_at: string;
  finished_at: string;
  agent: RunAgent;
  /** Git state and versions when the run started; null in reports of format 1. */
  environment: RunEnvironment | null;
  /** Every case name of the suite, selected or not (null in reports of format 1). */
  suite_cases: string[] | null;
  options: {
    concurrency: number;
    repeat?: number;
    isolation: 'process' | 'session';
    filter?: string;
    tags?: string[];
    shard?: string;
    allow_side_effects: boolean;
    /** `--max-processes`: most agent processes alive at once, when given. */
    max_processes?: number;
  };
  /** True when the run was stopped by SIGINT or SIGTERM before every case had run. */
  interrupted?: boolean;
  /**
   * Present while `holodeck test` is still running: the saved record is rewritten as cases finish
   * and then holds the finished cases only; `finished_at` is the time of that write.
   */
  in_progress?: { planned_cases: number };
  /** `holodeck test regrade`: the id of the run whose transcripts this run graded again. */
  regraded_from?: string;
  summary: RunSummary;
  cases: CaseReport[];
}
