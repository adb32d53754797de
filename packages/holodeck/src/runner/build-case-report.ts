import { addTokenUsage, emptyTokenUsage } from '../backends/contract/index.js';
import type { PreparedCase } from './prepare-suite.js';
import {
  attemptErrorOf,
  type CaseState,
  countAttempts,
  DEFAULT_CONFIDENCE,
  passIntervalOf,
  stateOf,
  suiteAttemptFigures,
} from './report/case-state.js';
import { judgeTotals } from './report/judge-totals.js';
import type { CaseAttempt, CaseReport, RunSummary } from './report/run-report.js';
import { addCost } from './run-attempt.js';

/**
 * One case over its attempts. The pass rate is over finished attempts (graded to the end); pass@k
 * and pass^k use k = the finished attempts: pass@k is 1 when any passed, pass^k when all did. The
 * case passes when its pass rate reaches min_pass_rate and no attempt errored (see CaseState). A
 * case the interrupted run kept from finishing (`planned` attempts not all run to their end) is
 * `stopped` (`interrupted`): neither passed nor errored, whatever its finished attempts did.
 */
export function buildCaseReport(
  testCase: PreparedCase,
  attempts: CaseAttempt[],
  planned = attempts.length,
  confidence = DEFAULT_CONFIDENCE,
): CaseReport {
  const { config } = testCase;
  const interrupted = attempts.length < planned || attempts.some((attempt) => attempt.interrupted);
  const counts = countAttempts(attempts);
  const state = stateOf(counts, interrupted);
  const passes = counts.passed;
  const passRate = counts.finished ? passes / counts.finished : 0;
  const minPassRate = config.min_pass_rate ?? 1;
  const errored = state === 'errored';
  const firstError = attempts.map(attemptErrorOf).find((error) => error !== undefined);
  const first = attempts[0];
  const position = testCase.source.locate?.(testCase.source.path);
  return {
    name: config.name,
    tags: config.tags ?? [],
    input: config.input ?? config.turns?.[0]?.input ?? '',
    ...(config.ground_truth !== undefined ? { ground_truth: config.ground_truth } : {}),
    passed: !interrupted && !errored && passRate >= minPassRate,
    errored,
    state,
    ...(position ? { source: { file: testCase.source.file, line: position.line } } : {}),
    ...(interrupted ? { interrupted: true } : {}),
    ...(firstError !== undefined ? { error: firstError } : {}),
    pass_rate: passRate,
    min_pass_rate: minPassRate,
    finished_attempts: counts.finished,
    pass_interval: passIntervalOf(passes, counts.finished, confidence),
    pass_at_k: passes > 0 ? 1 : 0,
    pass_pow_k: counts.finished > 0 && passes === counts.finished ? 1 : 0,
    attempts,
    response: first?.response ?? '',
    tool_calls: first?.tool_calls ?? [],
    tool_results: first?.tool_results ?? [],
    metrics: first?.metrics ?? [],
    score: attempts.length ? attempts.reduce((sum, attempt) => sum + attempt.score, 0) / attempts.length : 0,
    token_usage: attempts.reduce(
      (sum, attempt) => addTokenUsage(sum, attempt.token_usage),
      emptyTokenUsage(),
    ),
    num_turns: first?.num_turns ?? 0,
    duration_ms: attempts.reduce((sum, attempt) => sum + attempt.duration_ms, 0),
  };
}

/** Totals over every case of a run. */
export function summarise(
  cases: readonly CaseReport[],
  durationMs: number,
  confidence = DEFAULT_CONFIDENCE,
): RunSummary {
  const passed = cases.filter((testCase) => testCase.passed).length;
  const interrupted = cases.filter((testCase) => testCase.interrupted).length;
  const errored = cases.filter((testCase) => testCase.errored && !testCase.interrupted).length;
  const failed = cases.length - passed - errored - interrupted;
  const states: Record<CaseState, number> = { passing: 0, failing: 0, flaky: 0, errored: 0, stopped: 0 };
  for (const testCase of cases) if (testCase.state) states[testCase.state] += 1;
  const attempts = cases.flatMap((testCase) => testCase.attempts);
  const cost = attempts.reduce<number | null>((sum, attempt) => addCost(sum, attempt.cost_usd), 0);
  const unknownReason =
    cost === null ? attempts.find((attempt) => attempt.cost_usd === null)?.cost_unknown_reason : undefined;
  const judge = judgeTotals(attempts);
  return {
    total: cases.length,
    passed,
    failed,
    errored,
    ...(interrupted ? { interrupted } : {}),
    pass_rate: passed + failed ? passed / (passed + failed) : 0,
    states,
    confidence,
    attempts: suiteAttemptFigures(cases, confidence),
    duration_ms: durationMs,
    token_usage: cases.reduce((sum, testCase) => addTokenUsage(sum, testCase.token_usage), emptyTokenUsage()),
    cost_usd: cost,
    ...(unknownReason !== undefined ? { cost_unknown_reason: unknownReason } : {}),
    cost_per_passed_case_usd: cost !== null && passed > 0 ? cost / passed : null,
    ...judge,
    total_cost_usd:
      cost === null || judge.judge_cost_usd === null
        ? null
        : Math.round((cost + judge.judge_cost_usd) * 1e10) / 1e10,
  };
}
