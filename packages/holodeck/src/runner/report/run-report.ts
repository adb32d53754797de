import type { GovernanceSummary, TokenUsage, ToolCall, ToolResult } from '../../backends/contract/index.js';
import type { MetricOutcome } from '../../evals/metric.js';
import type { CaseState } from './case-state.js';

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
  /**
   * `sha256:<hex>` of the suite: every test case (inputs, expectations, metrics, thresholds,
   * repeats, min_pass_rate) and evaluations.metrics, canonical JSON. Absent in older reports.
   */
  suite_hash?: string;
  /** The `version:` of the instructions file's front matter, when it has one. */
  instructions_version?: string;
}

/**
 * What HoloDeck's own grading calls spent: every judge answer (judge, RAG, agent and conversation
 * judge metrics, G-Eval's samples and steps) and every embeddings request of the `similar` metric.
 * Priced with the built-in price tables of each call's model, never with agent.yaml's `pricing:`.
 */
export interface JudgeSpend {
  /** Tokens billed, as each provider counts them (prompt_tokens: Anthropic's input beside its cache reads, OpenAI's with them). */
  judge_token_usage: TokenUsage;
  /** USD; 0 when nothing was billed (no judge metric, or every verdict from the judge cache); null when a price is unknown. */
  judge_cost_usd: number | null;
  /** Why judge_cost_usd is null: the first unpriced call's reason. */
  judge_cost_unknown_reason?: string;
  /** Calls billed, and judge verdicts read from the judge cache (which cost nothing). */
  judge_calls: { billed: number; cached: number };
}

/** One agent run of a test case (a case with repeat: 3 has three attempts). */
export interface CaseAttempt extends Partial<JudgeSpend> {
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
  /** USD of the agent's own model calls (the judge's are in judge_cost_usd); null when the backend could not know it. */
  cost_usd: number | null;
  /** Why cost_usd is null (a local model, a model without a known price), when the backend said. */
  cost_unknown_reason?: string;
  num_turns: number;
  duration_ms: number;
  /** Per-turn details of a multi-turn case. */
  turns?: TurnRecord[];
  /** Novarch's verdicts in this attempt, when the agent is governed. */
  governance?: GovernanceSummary;
  /** True when the run was interrupted (Ctrl+C, SIGTERM) while this attempt ran. */
  interrupted?: boolean;
  /** The `limits:` entry that stopped this attempt in flight (then it failed, with `reason` as its outcome). */
  stopped?: {
    limit: 'tokens' | 'messages' | 'cost' | 'tool_calls';
    max: number;
    reached: number;
    reason: string;
  };
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

/** A pass-rate interval at a stated confidence (see docs/report-format.md, "Intervals"). */
export interface PassInterval {
  lower: number;
  upper: number;
  /** The confidence level, `evaluations.confidence` (default 0.95). */
  confidence: number;
  /** `wilson`, `rule-of-three` (no failure or no pass), `cluster-wilson`, `cluster-rule-of-three`. */
  method: string;
}

/** Why `repeat: auto` stopped a case's attempts. */
export interface RepeatStop {
  /** `decided`: the interval left the pass mark behind; `max`: the cap came first; `stopped`: the run was stopped. */
  rule: 'decided' | 'max' | 'stopped';
  /** Attempts run. */
  attempts: number;
  min: number;
  max: number;
  /** In words: `decided after 4: ≥ 80% with 95%`. */
  reason: string;
}

/** The outcome of one test case over all its attempts. */
export interface CaseReport {
  name: string;
  /** In a matrix run: the variant this result is of (see RunReport.matrix). */
  variant?: string;
  tags: string[];
  /** The user message (the first turn's, for a conversation). */
  input: string;
  ground_truth?: string;
  /** Passed = pass rate ≥ min_pass_rate (1 by default: every attempt passed). */
  passed: boolean;
  /**
   * True when an attempt could not be graded: its agent run failed, or a deciding metric could
   * not run (state `errored`). Reports written before states were recorded: every attempt failed to run.
   */
  errored: boolean;
  /** passing, failing, flaky, errored or stopped; absent in reports written before states were recorded. */
  state?: CaseState;
  /** Attempts graded to the end (neither errored nor interrupted): what pass_rate is over. */
  finished_attempts?: number;
  /** The interval of pass_rate; null with fewer than 2 finished attempts (no interval for one). */
  pass_interval?: PassInterval | null;
  /** With `repeat: auto`: why the attempts stopped where they did. */
  repeat_stop?: RepeatStop;
  /** Where the case is written: agent.yaml or its test_cases_file, 1-based line (for CI annotations). */
  source?: { file: string; line: number };
  /**
   * True when the run was interrupted before this case finished (an attempt was stopped or never
   * started): then neither passed nor errored.
   */
  interrupted?: boolean;
  /** First run error, when any. */
  error?: string;
  /** Finished attempts that passed / finished attempts (0 when none finished). */
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

/** Totals of a run. The judge_* totals are absent in reports written before grading spend was counted. */
export interface RunSummary extends Partial<JudgeSpend> {
  total: number;
  passed: number;
  failed: number;
  errored: number;
  /** Cases the interruption kept from finishing (absent when the run was not interrupted). */
  interrupted?: number;
  /** Passed cases / cases that finished (neither errored nor stopped). */
  pass_rate: number;
  /** Cases by state (a flaky case is also counted in passed or failed). */
  states?: Record<CaseState, number>;
  /** The confidence level of every interval of the report (`evaluations.confidence`). */
  confidence?: number;
  /** Attempts over every case, by how they ended, and their pass rate with a cluster-robust interval. */
  attempts?: {
    finished: number;
    passed: number;
    errored: number;
    stopped: number;
    /** passed / finished attempts. */
    pass_rate: number;
    /** Clustered by case; null with fewer than 2 finished attempts. */
    pass_interval: (PassInterval & { effective_attempts: number }) | null;
  };
  duration_ms: number;
  token_usage: TokenUsage;
  /** USD of the agent's model calls; null when the cost of some attempt is unknown. */
  cost_usd: number | null;
  /** Why cost_usd is null: the reason of the first attempt of unknown cost. */
  cost_unknown_reason?: string;
  /** cost_usd / passed cases; null when the cost is unknown or no case passed. */
  cost_per_passed_case_usd?: number | null;
  /** What the run spent: cost_usd + judge_cost_usd; null when either is unknown. */
  total_cost_usd?: number | null;
}

/** An interval of a change in pass rate (current − baseline), as the JSON report keeps it. */
export interface ReportChangeInterval {
  estimate: number;
  lower: number;
  upper: number;
  confidence: number;
  method: string;
}

/** The comparison with `--baseline`, in the JSON report written with it (not in saved runs). */
export interface ReportComparison {
  baseline_run_id: string;
  confidence: number;
  /** Cases both runs finished: every figure below is over these. */
  compared_cases: number;
  not_selected: string[];
  differences: string[];
  counts: Record<string, number>;
  /** What the compared cases cost in each run, in all and per passed case (USD; null when unknown). */
  cost?: {
    baseline_usd: number | null;
    current_usd: number | null;
    delta_usd: number | null;
    baseline_per_passed_case_usd: number | null;
    current_per_passed_case_usd: number | null;
    delta_per_passed_case_usd: number | null;
  };
  suite: {
    baseline_pass_rate: number;
    current_pass_rate: number;
    delta: ReportChangeInterval & { seed: number; resamples: number };
    mcnemar: { baseline_only: number; current_only: number; p_value: number } | null;
    wins: number;
    losses: number;
    ties: number;
    verdict: 'regressed' | 'improved' | 'no-significant-change';
    verdict_basis: 'mcnemar' | 'bootstrap' | 'pooled-newcombe';
    chance: { expected_false_regressions: number; at_least_one: number };
  };
  cases: {
    name: string;
    change: string;
    not_compared_reason?: string;
    /** The change in the mean cost of one attempt (current − baseline), USD; null when unknown. */
    cost_per_attempt_delta_usd?: number | null;
    baseline?: { passed: number; finished: number };
    current?: { passed: number; finished: number };
    delta?: ReportChangeInterval;
    p_value?: number;
    holm_p_value?: number;
    outcome?: 'win' | 'loss' | 'tie';
  }[];
}

/** One variant of a matrix run (`matrix:` in agent.yaml, or `--matrix`). */
export interface MatrixVariantReport {
  /** Stable name, given or derived from the overrides; the cases of this variant carry it. */
  name: string;
  /** The fields it overrides, as written (secrets redacted): model, instructions, temperature, max_turns. */
  overrides: Record<string, unknown>;
  model: string;
  provider: string;
  /** The backend its provider selects: `claude` (Claude Agent SDK) or `ai-sdk`. */
  backend: string;
  /** `sha256:<hex>` of this variant's configuration (redacted), as RunAgent.config_hash. */
  config_hash: string | null;
  instructions_hash: string | null;
  /** This variant's totals: sums over its own attempts only. */
  summary: RunSummary;
  /** True when the run stopped before this variant finished (or started) its cases. */
  interrupted?: boolean;
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
    /** `--repeat`: a number of attempts, or `auto`. */
    repeat?: number | 'auto';
    isolation: 'process' | 'session';
    filter?: string;
    tags?: string[];
    shard?: string;
    /** `--case` names. */
    cases?: string[];
    /** `--sample`, and its seed. */
    sample?: number;
    sample_seed?: number;
    /** `--limit`. */
    limit?: number;
    allow_side_effects: boolean;
    /** `--max-processes`: most agent processes alive at once, when given. */
    max_processes?: number;
  };
  /** True when the run was stopped (SIGINT, SIGTERM, or its --max-cost budget) before every case had run. */
  interrupted?: boolean;
  /** `--max-cost`: the budget, what was spent, and whether it stopped the run. */
  budget?: { max_cost_usd: number; spent_usd: number; reached: boolean };
  /**
   * Present while `holodeck test` is still running: the saved record is rewritten as cases finish
   * and then holds the finished cases only; `finished_at` is the time of that write.
   */
  in_progress?: { planned_cases: number };
  /** `holodeck test regrade`: the id of the run whose transcripts this run graded again. */
  regraded_from?: string;
  /**
   * `--retry-errored` / `--resume`: the saved run this run continues. Its cases not named in
   * `cases` are copied from that run as it saved them; the named ones ran again in this one.
   */
  continued_from?: { run_id: string; mode: 'retry-errored' | 'resume'; cases: string[] };
  summary: RunSummary;
  cases: CaseReport[];
  /** With `--baseline`: the comparison (JSON reports written by `-o`; saved runs do not keep it). */
  comparison?: ReportComparison;
  /**
   * A matrix run: its variants in order. Then `cases` holds every variant's results (each with
   * `variant`, in variant order), `summary` sums over all of them, and `agent` is the agent as written.
   */
  matrix?: { variants: MatrixVariantReport[] };
}
