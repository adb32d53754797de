import type { TokenUsage } from '../../../../src/backends/contract/index.js';
import type { MetricOutcome } from '../../../../src/evals/metric.js';
import {
  attemptErrorOf,
  countAttempts,
  passIntervalOf,
  stateOf,
  suiteAttemptFigures,
} from '../../../../src/runner/report/case-state.js';
import type { CaseAttempt, CaseReport, RunReport } from '../../../../src/runner/report/run-report.js';

/** Builders of realistic run reports for the report tests. */

export function usage(prompt: number, completion: number): TokenUsage {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    cache_read_tokens: 0,
    cache_creation_tokens: 0,
  };
}

export function bleu(score: number, threshold = 0.6): MetricOutcome {
  return {
    name: 'bleu',
    type: 'bleu',
    score,
    threshold,
    passed: score >= threshold,
    reason: `BLEU ${score} against the ground truth`,
  };
}

export function judge(
  name: string,
  score: number,
  threshold = 0.7,
  reason = 'The answer cites the policy.',
): MetricOutcome {
  return { name, type: 'g_eval', score, threshold, passed: score >= threshold, reason };
}

export function toolCalled(tool: string, passed: boolean): MetricOutcome {
  return {
    name: 'tool_called',
    type: 'tool_called',
    score: passed ? 1 : 0,
    passed,
    reason: passed ? `${tool} was called` : `${tool} was never called`,
  };
}

function meanScore(metrics: MetricOutcome[]): number {
  return metrics.length === 0
    ? 1
    : metrics.reduce((total, metric) => total + metric.score, 0) / metrics.length;
}

export function attempt(overrides: Partial<CaseAttempt> = {}): CaseAttempt {
  const metrics = overrides.metrics ?? [bleu(0.82)];
  return {
    attempt: 1,
    passed: overrides.error === undefined && metrics.every((metric) => metric.passed),
    response: 'Refunds are issued within 14 days of the return arriving at our warehouse.',
    tool_calls: [{ name: 'lookup_order', arguments: { order_id: 'A-1001' }, call_id: 'toolu_01' }],
    tool_results: [{ call_id: 'toolu_01', result: '{"status":"delivered"}', is_error: false }],
    metrics,
    score: overrides.error === undefined ? meanScore(metrics) : 0,
    token_usage: usage(1200, 180),
    cost_usd: 0.0063,
    num_turns: 2,
    duration_ms: 1234,
    ...overrides,
  };
}

/** A case from its attempts; passed/errored/pass rates follow from them like the runner computes. */
export function testCase(
  name: string,
  attempts: CaseAttempt[],
  overrides: Partial<CaseReport> = {},
): CaseReport {
  const first = attempts[0] ?? attempt();
  const counts = countAttempts(attempts);
  const passedCount = counts.passed;
  const passRate = counts.finished === 0 ? 0 : passedCount / counts.finished;
  const minPassRate = overrides.min_pass_rate ?? 1;
  const state = stateOf(counts, false);
  const errored = state === 'errored';
  const error = attempts.map(attemptErrorOf).find((entry) => entry !== undefined);
  return {
    name,
    tags: ['billing'],
    input: 'How long does a refund take?',
    ground_truth: 'Refunds take up to 14 days after the return arrives.',
    passed: !errored && passRate >= minPassRate,
    errored,
    state,
    ...(error === undefined ? {} : { error }),
    pass_rate: passRate,
    min_pass_rate: minPassRate,
    finished_attempts: counts.finished,
    pass_interval: passIntervalOf(passedCount, counts.finished, 0.95),
    pass_at_k: passedCount > 0 ? 1 : 0,
    pass_pow_k: passRate ** attempts.length,
    attempts,
    response: first.response,
    tool_calls: first.tool_calls,
    tool_results: first.tool_results,
    metrics: first.metrics,
    score:
      attempts.length === 0 ? 0 : attempts.reduce((total, entry) => total + entry.score, 0) / attempts.length,
    token_usage: first.token_usage,
    num_turns: first.num_turns,
    duration_ms: first.duration_ms,
    ...overrides,
  };
}

export function passingCase(
  name: string,
  metrics: MetricOutcome[] = [bleu(0.82)],
  durationMs = 1234,
): CaseReport {
  return testCase(name, [attempt({ metrics, duration_ms: durationMs })]);
}

export function failingCase(name: string, metrics: MetricOutcome[]): CaseReport {
  return testCase(name, [attempt({ metrics, response: 'Refunds take a while.' })]);
}

export function erroredCase(name: string, error: string): CaseReport {
  return testCase(name, [
    attempt({
      error,
      passed: false,
      response: '',
      tool_calls: [],
      tool_results: [],
      metrics: [],
      token_usage: usage(0, 0),
      cost_usd: 0,
      num_turns: 0,
      duration_ms: 410,
    }),
  ]);
}

/** A run report of `cases`, its summary computed from them. */
export function runReport(cases: CaseReport[], overrides: Partial<RunReport> = {}): RunReport {
  const passed = cases.filter((entry) => entry.passed).length;
  const errored = cases.filter((entry) => entry.errored).length;
  const attempts = cases.flatMap((entry) => entry.attempts);
  const sum = (pick: (entry: CaseAttempt) => number) =>
    attempts.reduce((total, entry) => total + pick(entry), 0);
  return {
    schema_version: 2,
    run_id: '2026-11-30T01-02-03Z-ab12cd',
    started_at: '2026-11-30T01:02:03.000Z',
    finished_at: '2026-11-30T01:02:15.300Z',
    agent: {
      name: 'support-agent',
      file: '/home/dev/agents/support/agent.yaml',
      model: 'claude-sonnet-4-5',
      provider: 'anthropic',
      config_hash: `sha256:${'a1'.repeat(32)}`,
      config: { name: 'support-agent', model: { provider: 'anthropic', name: 'claude-sonnet-4-5' } },
      instructions_hash: `sha256:${'b2'.repeat(32)}`,
    },
    environment: {
      git: { commit: 'c0ffee1234567890c0ffee1234567890c0ffee12', branch: 'main', dirty: false },
      versions: {
        holodeck: '0.1.0',
        node: 'v20.20.2',
        sdk: { name: '@anthropic-ai/claude-agent-sdk', version: '0.3.332' },
        cli: '2.1.332',
      },
    },
    suite_cases: cases.map((entry) => entry.name),
    options: { concurrency: 2, isolation: 'process', allow_side_effects: false },
    summary: {
      total: cases.length,
      passed,
      failed: cases.length - passed - errored,
      errored,
      pass_rate: cases.length === 0 ? 0 : passed / cases.length,
      duration_ms: 12_300,
      token_usage: usage(
        sum((entry) => entry.token_usage.prompt_tokens),
        sum((entry) => entry.token_usage.completion_tokens),
      ),
      cost_usd: sum((entry) => entry.cost_usd ?? 0),
      confidence: 0.95,
      attempts: suiteAttemptFigures(cases, 0.95),
    },
    cases,
    ...overrides,
  };
}

/** A run with one passing, one failing (two metrics), and one errored case. */
export function mixedRun(overrides: Partial<RunReport> = {}): RunReport {
  return runReport(
    [
      passingCase('refund-policy'),
      failingCase('shipping-times', [bleu(0.41), judge('helpfulness', 0.9)]),
      erroredCase('escalate-angry-customer', 'API error 529: Overloaded (after 3 retries)'),
    ],
    overrides,
  );
}
