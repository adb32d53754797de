import { emptyTokenUsage, type TokenUsage } from '../backends/contract/index.js';
import type { PreparedCase } from './prepare-suite.js';
import type { CaseAttempt, CaseReport, RunSummary } from './report/run-report.js';
import { addCost } from './run-attempt.js';

function addUsage(total: TokenUsage, usage: TokenUsage): TokenUsage {
  return {
    prompt_tokens: total.prompt_tokens + usage.prompt_tokens,
    completion_tokens: total.completion_tokens + usage.completion_tokens,
    total_tokens: total.total_tokens + usage.total_tokens,
    cache_read_tokens: total.cache_read_tokens + usage.cache_read_tokens,
    cache_creation_tokens: total.cache_creation_tokens + usage.cache_creation_tokens,
  };
}

/**
 * One case over its attempts. pass@k and pass^k use k = the number of attempts: pass@k is 1 when
 * any attempt passed, pass^k when all did. The case passes when its pass rate reaches min_pass_rate.
 * A case the interrupted run kept from finishing (`planned` attempts not all run to their end) is
 * `interrupted`: neither passed nor errored, whatever its finished attempts did.
 */
export function buildCaseReport(
  testCase: PreparedCase,
  attempts: CaseAttempt[],
  planned = attempts.length,
): CaseReport {
  const { config } = testCase;
  const interrupted = attempts.length < planned || attempts.some((attempt) => attempt.interrupted);
  const passes = attempts.filter((attempt) => attempt.passed).length;
  const passRate = attempts.length ? passes / attempts.length : 0;
  const minPassRate = config.min_pass_rate ?? 1;
  const errored =
    !interrupted && attempts.length > 0 && attempts.every((attempt) => attempt.error !== undefined);
  const firstError = attempts.find((attempt) => attempt.error !== undefined)?.error;
  const first = attempts[0];
  return {
    name: config.name,
    tags: config.tags ?? [],
    input: config.input ?? config.turns?.[0]?.input ?? '',
    ...(config.ground_truth !== undefined ? { ground_truth: config.ground_truth } : {}),
    passed: !interrupted && !errored && passRate >= minPassRate,
    errored,
    ...(interrupted ? { interrupted: true } : {}),
    ...(firstError !== undefined ? { error: firstError } : {}),
    pass_rate: passRate,
    min_pass_rate: minPassRate,
    pass_at_k: passes > 0 ? 1 : 0,
    pass_pow_k: attempts.length > 0 && passes === attempts.length ? 1 : 0,
    attempts,
    response: first?.response ?? '',
    tool_calls: first?.tool_calls ?? [],
    tool_results: first?.tool_results ?? [],
    metrics: first?.metrics ?? [],
    score: attempts.length ? attempts.reduce((sum, attempt) => sum + attempt.score, 0) / attempts.length : 0,
    token_usage: attempts.reduce((sum, attempt) => addUsage(sum, attempt.token_usage), emptyTokenUsage()),
    num_turns: first?.num_turns ?? 0,
    duration_ms: attempts.reduce((sum, attempt) => sum + attempt.duration_ms, 0),
  };
}

/** Totals over every case of a run. */
export function summarise(cases: readonly CaseReport[], durationMs: number): RunSummary {
  const passed = cases.filter((testCase) => testCase.passed).length;
  const errored = cases.filter((testCase) => testCase.errored).length;
  const interrupted = cases.filter((testCase) => testCase.interrupted).length;
  return {
    total: cases.length,
    passed,
    failed: cases.length - passed - errored - interrupted,
    errored,
    ...(interrupted ? { interrupted } : {}),
    pass_rate: cases.length ? passed / cases.length : 0,
    duration_ms: durationMs,
    token_usage: cases.reduce((sum, testCase) => addUsage(sum, testCase.token_usage), emptyTokenUsage()),
    cost_usd: cases
      .flatMap((testCase) => testCase.attempts)
      .reduce<number | null>((sum, attempt) => addCost(sum, attempt.cost_usd), 0),
  };
}
