import type { GovernanceSummary, TokenUsage, ToolCall, ToolResult } from '../backends/contract/index.js';
import type { LLMProvider } from '../config/index.js';

/** Everything a metric may look at: one agent answer and what led to it. */
export interface MetricInput {
  /** The user message of this turn (or the last turn of a conversation). */
  input: string;
  /** The agent's final response text ('' when the run failed). */
  response: string;
  /** The expected answer, when the test case gives one. */
  groundTruth?: string;
  /** Retrieval context for RAG metrics. */
  context?: string[];
  toolCalls: ToolCall[];
  toolResults: ToolResult[];
  structuredOutput?: unknown;
  durationMs: number;
  /** USD, or null when the backend cannot know what the run cost. */
  costUsd: number | null;
  /** Why costUsd is null, when the backend said. */
  costUnknownReason?: string;
  numTurns: number;
  tokenUsage: TokenUsage;
  /** Novarch's verdicts, when the agent is governed. */
  governance?: GovernanceSummary;
  /** A conversation's turns so far, in order (case metrics of a `turns:` case); unset for one answer. */
  conversation?: readonly { input: string; response: string }[];
  /** The test case's `vars` (after default_case), for expressions. */
  vars?: Readonly<Record<string, unknown>>;
}

/** What one metric concluded. Every metric yields a score in [0, 1], a pass/fail and a reason. */
export interface MetricOutcome {
  /** The metric's display name (its `name`, or its type). */
  name: string;
  type: string;
  score: number;
  /** The pass mark the score was compared with (undefined for pass/fail checks). */
  threshold?: number;
  passed: boolean;
  reason: string;
  /** Set when the metric could not run (judge unreachable, grader threw, ...): then passed is false. */
  error?: string;
  /** The metric's `weight` when agent.yaml sets one; 0 = reported, but deciding neither score nor pass. */
  weight?: number;
}

/** Services a metric may need, supplied by the runner. */
export interface MetricContext {
  /** Asks the judge model for a structured verdict (judge and RAG metrics). */
  judge?: JudgeClient;
  /** The attempt's signal: aborted when the case times out or the run is interrupted (Ctrl+C). */
  signal?: AbortSignal;
  /**
   * Which repeat of the same judgement this is (`holodeck judge calibrate` judges each example
   * several times); 0 or unset is the judgement `holodeck test` makes. Passed on as JudgeRequest.sample.
   */
  sample?: number;
  /**
   * Embeds texts (the `similar` metric): with `provider` (a metric's own embedding_provider), else
   * the agent's embeddings model. Throws when there is none or the request fails.
   */
  embed?: (
    texts: readonly string[],
    provider?: LLMProvider,
    signal?: AbortSignal,
    onCall?: (call: GradingCall) => void,
  ) => Promise<Float32Array[]>;
  /**
   * Told every call grading this attempt makes (judge answers, embeddings requests), billed or
   * cached: the runner adds them up into the attempt's judge_token_usage and judge_cost_usd.
   * Metrics pass it on to `judge.judge()` and `embed()`.
   */
  onGradingCall?: (call: GradingCall) => void;
}

/** Tokens one grading call was billed for, as its provider counted them (see PromptCounting). */
export interface GradingUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
  /** `cache-apart` (Anthropic: cache reads and writes beside input_tokens) or `cache-included` (OpenAI). */
  counting: 'cache-apart' | 'cache-included';
}

/** One call HoloDeck made to grade an answer: a judge answer or an embeddings request. */
export interface GradingCall {
  kind: 'judge' | 'embeddings';
  provider: string;
  model: string;
  /** True when the answer came from the judge cache: nothing was billed. */
  cached: boolean;
  /** What the provider billed; undefined when cached, or when its answer did not say (then the cost is unknown). */
  usage?: GradingUsage;
}

/** A configured metric, ready to evaluate answers. */
export interface Metric {
  readonly name: string;
  readonly type: string;
  /** Weight in the case score (weighted mean of metric scores); 1 when unset. */
  readonly weight?: number;
  evaluate(input: MetricInput, context: MetricContext): Promise<MetricOutcome>;
}

/** A request to the judge model: it must answer by calling one tool with this input schema. */
export interface JudgeRequest {
  system: string;
  prompt: string;
  /** JSON Schema of the verdict the judge must return (through a forced tool call). */
  verdictSchema: Record<string, unknown>;
  /**
   * Which of several samples of the same request this is (g-eval \`samples\`, calibration's
   * self-consistency): 1 and up get cache entries of their own and are asked at the judge's sampling
   * temperature (evaluations.model.temperature, default 1); 0 or unset is the single answer, at 0.
   */
  sample?: number;
}

/** Calls the judge model (temperature 0 but for repeats) and returns its validated structured verdict. */
export interface JudgeClient {
  readonly model: string;
  /** `onCall` is told the call: answered from the judge cache, or billed with its usage. */
  judge(
    request: JudgeRequest,
    signal?: AbortSignal,
    onCall?: (call: GradingCall) => void,
  ): Promise<Record<string, unknown>>;
}

/** Clamps a number into [0, 1] (NaN becomes 0). */
export function clampScore(value: number): number {
  if (Number.isNaN(value)) return 0;
  return Math.min(1, Math.max(0, value));
}
