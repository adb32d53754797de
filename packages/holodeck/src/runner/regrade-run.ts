import { randomBytes } from 'node:crypto';
import type { ExecutionResult } from '../backends/contract/index.js';
import type { LoadedAgent } from '../config/index.js';
import { UsageError } from '../errors.js';
import type { Metric, MetricContext, MetricOutcome } from '../evals/metric.js';
import { type Recorder, scopeOf } from '../recording/recorder.js';
import { retrievalContextOf } from '../tools/retrieval/retrieval-context.js';
import { markTurn, type TrafficScope } from '../tools/run-traffic.js';
import { allDecidingPassed, weightedScore } from './attempt-outcome.js';
import { buildCaseReport } from './build-case-report.js';
import { evaluateAll, metricInput } from './grade-attempt.js';
import { GradingMeter } from './grading-meter.js';
import { type PreparedCase, prepareSuite } from './prepare-suite.js';
import type { CaseAttempt, RunReport, TurnRecord } from './report/run-report.js';
import { RunRecord } from './run-record.js';
import { suiteMetricContext, usesEmbeddings } from './suite-judge.js';

/** Options of `regradeRun` (`holodeck test regrade`). */
export interface RegradeOptions {
  /** Only these metrics (by name) are graded again; the others keep their saved outcomes. Default: all. */
  metrics?: readonly string[];
  /** Judges answered from (or recorded into) a recording (`--replay`). */
  recorder?: Recorder;
  onNotice?: (message: string) => void;
}

function asResult(attempt: CaseAttempt | TurnRecord, from: CaseAttempt): ExecutionResult {
  return {
    response: attempt.response,
    tool_calls: attempt.tool_calls,
    tool_results: attempt.tool_results,
    ...(from.governance ? { governance: from.governance } : {}),
    token_usage: from.token_usage,
    num_turns: from.num_turns,
    is_error: false,
    cost_usd: from.cost_usd,
    duration_ms: from.duration_ms,
  };
}

/** Grades `metrics` of a saved answer; only the selected ones are evaluated, the rest keep their outcome. */
async function grade(
  metrics: readonly Metric[],
  saved: readonly MetricOutcome[],
  selected: (name: string) => boolean,
  input: Parameters<typeof evaluateAll>[1],
  context: MetricContext,
): Promise<MetricOutcome[]> {
  const fresh = await evaluateAll(
    metrics.filter((metric) => selected(metric.name)),
    input,
    context,
  );
  return metrics.flatMap((metric) => {
    const outcome = selected(metric.name)
      ? fresh.find((entry) => entry.name === metric.name)
      : saved.find((entry) => entry.name === metric.name);
    return outcome ? [outcome] : [];
  });
}

async function regradeAttempt(
  testCase: PreparedCase,
  attempt: CaseAttempt,
  selected: (name: string) => boolean,
  context: MetricContext,
  scope?: TrafficScope,
): Promise<CaseAttempt> {
  // An attempt that did not run to an answer has nothing to grade: it stays as it was.
  if (attempt.error !== undefined || attempt.interrupted) return attempt;
  const { config } = testCase;
  if (!attempt.turns) {
    const result = asResult(attempt, attempt);
    const input = metricInput(
      config.input ?? '',
      result,
      config.ground_truth,
      config.context ?? retrievalContextOf(result),
    );
    const metrics = await grade(testCase.metrics, attempt.metrics, selected, input, context);
    return {
      ...attempt,
      metrics,
      passed: allDecidingPassed(testCase.metrics, metrics),
      score: weightedScore(testCase.metrics, metrics),
    };
  }
  const turns: TurnRecord[] = [];
  let caseMetrics: MetricOutcome[] = attempt.metrics;
  for (const [index, turn] of attempt.turns.entries()) {
    const turnConfig = config.turns?.[index];
    markTurn(scope, index + 1);
    const result = asResult(turn, attempt);
    const contextPassages = turnConfig?.context ?? config.context ?? retrievalContextOf(result);
    const input = metricInput(turn.input, result, turnConfig?.ground_truth, contextPassages);
    const turnMetrics = testCase.turnMetrics[index] ?? [];
    const metrics = await grade(turnMetrics, turn.metrics, selected, input, context);
    turns.push({ ...turn, metrics, passed: allDecidingPassed(turnMetrics, metrics) });
    if (index === attempt.turns.length - 1) {
      const finalInput = {
        ...metricInput(turn.input, result, config.ground_truth ?? turnConfig?.ground_truth, contextPassages),
        conversation: attempt.turns.map((entry) => ({ input: entry.input, response: entry.response })),
      };
      caseMetrics = await grade(testCase.metrics, attempt.metrics, selected, finalInput, context);
    }
  }
  const all = [...testCase.turnMetrics.flat(), ...testCase.metrics];
  return {
    ...attempt,
    turns,
    metrics: caseMetrics,
    passed: turns.every((turn) => turn.passed) && allDecidingPassed(testCase.metrics, caseMetrics),
    score: weightedScore(all, [...turns.flatMap((turn) => turn.metrics), ...caseMetrics]),
  };
}

/**
 * Grades a saved run's transcripts again with the suite's current metrics, without running the
 * agent: each attempt's saved answer, tool calls and results go to the metrics as they were. Cases
 * no longer in the suite are left out (with a notice). The new run links the one it regraded
 * (`regraded_from`).
 */
export async function regradeRun(
  agent: LoadedAgent,
  saved: RunReport,
  options: RegradeOptions = {},
): Promise<RunReport> {
  const suite = await prepareSuite(agent);
  const known = new Set(
    [...suite.cases.flatMap((entry) => [...entry.metrics, ...entry.turnMetrics.flat()])].map(
      (metric) => metric.name,
    ),
  );
  for (const name of options.metrics ?? [])
    if (!known.has(name))
      throw new UsageError(
        '--metrics',
        `no metric named "${name}" in the suite`,
        `the metrics are ${[...known].join(', ')}`,
      );
  const selected = options.metrics ? new Set(options.metrics) : undefined;
  const isSelected = (name: string) => !selected || selected.has(name);
  const record = new RunRecord(
    agent,
    {
      concurrency: saved.options.concurrency,
      isolation: saved.options.isolation,
      allowSideEffects: saved.options.allow_side_effects,
      ...(saved.options.repeat !== undefined ? { repeat: saved.options.repeat } : {}),
    },
    randomBytes(3).toString('hex'),
  );
  record.setSuiteCases(suite.cases.map((entry) => entry.config.name));
  const usesJudge = suite.usesJudge;
  const contextOf = suiteMetricContext(
    agent,
    { judge: usesJudge, embeddings: usesEmbeddings(suite.cases) },
    {},
    options.recorder,
  );
  await options.recorder?.start();
  try {
    const reports = [];
    for (const savedCase of saved.cases) {
      const testCase = suite.cases.find((entry) => entry.config.name === savedCase.name);
      if (!testCase) {
        options.onNotice?.(`case "${savedCase.name}" is no longer in the suite: left out`);
        continue;
      }
      const attempts: CaseAttempt[] = [];
      for (const attempt of savedCase.attempts) {
        // Judges' requests belong to the case and attempt they grade, as in the original run.
        // The regraded attempt's judge spend is what this regrade spent on it.
        const grading = new GradingMeter();
        const scope = options.recorder ? scopeOf(savedCase.name, attempt.attempt) : undefined;
        const context = { ...contextOf(scope), onGradingCall: grading.record };
        const regraded = await regradeAttempt(testCase, attempt, isSelected, context, scope);
        const spent = regraded === attempt ? {} : grading.spend();
        const unmatched = options.recorder?.unmatchedOf(savedCase.name, attempt.attempt) ?? [];
        const graded = { ...regraded, ...spent };
        attempts.push(unmatched[0] ? { ...graded, passed: false, error: unmatched[0] } : graded);
      }
      await options.recorder?.saveCase(savedCase.name);
      reports.push(buildCaseReport(testCase, attempts));
    }
    return { ...(await record.report(reports)), regraded_from: saved.run_id };
  } finally {
    await options.recorder?.close();
  }
}
