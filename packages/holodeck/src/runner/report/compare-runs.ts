import type { MetricOutcome } from '../../evals/metric.js';
import { DEFAULT_CONFIDENCE } from './case-state.js';
import { type CaseStatus, caseStatus } from './case-status.js';
import {
  type CaseStatistics,
  compareStatistics,
  notComparedReason,
  type SuiteStatistics,
} from './compare-statistics.js';
import type { CaseAttempt, CaseReport, RunReport } from './run-report.js';

/**
 * How a case moved between the baseline and the current run: `regressed` / `improved` only when
 * the interval of its change in pass rate excludes 0; `unchanged` = no significant change (the
 * numbers are in `statistics`); `not-compared` when either run did not finish it (errored, stopped).
 */
export type CaseChange = 'regressed' | 'improved' | 'unchanged' | 'new' | 'removed' | 'not-compared';

/** How a metric moved: its pass/fail flipped, it stayed, or it exists in one run only. */
export type MetricChange = 'newly-failing' | 'newly-passing' | 'unchanged' | 'new' | 'removed';

/** One metric of one case in both runs (matched by case name and metric name). */
export interface MetricComparison {
  name: string;
  change: MetricChange;
  baselineScore?: number;
  currentScore?: number;
  /** currentScore − baselineScore, when the metric is in both runs. */
  delta?: number;
  baselinePassed?: boolean;
  currentPassed?: boolean;
}

/** One case in both runs (matched by name). */
export interface CaseComparison {
  name: string;
  change: CaseChange;
  baselineStatus?: CaseStatus;
  currentStatus?: CaseStatus;
  metrics: MetricComparison[];
  /** For a case both runs finished: the change in pass rate, its interval and p-values. */
  statistics?: CaseStatistics;
  /** For `not-compared`: why (`errored in this run`, `stopped in the baseline`). */
  notComparedReason?: string;
  /** For a case in both runs: the mean cost of an attempt in each, USD; null when unknown. */
  cost?: { baseline: number | null; current: number | null };
}

/** The cost of the compared cases in each run: in all, and per passed case (null when unknown or none passed). */
export interface CostComparison {
  baseline: number | null;
  current: number | null;
  baselinePerPassed: number | null;
  currentPerPassed: number | null;
}

/** The comparison of a run with a baseline run. */
export interface RunComparison {
  currentRunId: string;
  baselineRunId: string;
  baselineStartedAt: string;
  /** The confidence level of every interval (the current run's `evaluations.confidence`). */
  confidence: number;
  /** Passed / compared cases in each run, over the cases both finished only. */
  currentPassRate: number;
  baselinePassRate: number;
  /** Cases both runs finished: all the statistics are over these. */
  compared: number;
  /** The suite's change over the compared cases (paired bootstrap, McNemar, win/loss/tie). */
  suite: SuiteStatistics;
  /** What the compared cases cost in each run (the same cases on both sides). */
  cost: CostComparison;
  /** Cases of the current run in its order, then removed cases in the baseline's order. */
  cases: CaseComparison[];
  counts: Record<CaseChange, number>;
  /**
   * Baseline cases the current run did not select (`--filter`, `--tag`, `--shard`) although its
   * suite still has them: left out of the comparison, not counted as removed.
   */
  notSelected: string[];
  /** How the two runs differ besides their cases (agent, model, provider, repeats, isolation, selection). */
  differences: string[];
}

/** What compareRuns knows beyond the two reports. */
export interface CompareRunsOptions {
  /** Every case name of the current suite, selected or not; without it every missing case is removed. */
  suiteCases?: Iterable<string>;
}

/** A metric summarised over a case's attempts: mean score, passed only if it passed in each. */
interface MetricSummary {
  score: number;
  passed: boolean;
}

/** Compares `current` with `baseline`, case by case and metric by metric. */
export function compareRuns(
  current: RunReport,
  baseline: RunReport,
  options: CompareRunsOptions = {},
): RunComparison {
  const baselineCases = keyByName(baseline.cases, (caseReport) => caseReport.name);
  const inSuite = new Set(options.suiteCases ?? []);
  const currentKeys = new Set<string>();
  const cases: (CaseComparison & { pair?: { current: CaseReport; baseline: CaseReport } })[] = [];
  const notSelected: string[] = [];
  for (const [key, caseReport] of keyByName(current.cases, (entry) => entry.name)) {
    currentKeys.add(key);
    cases.push(compareCase(key, caseReport, baselineCases.get(key)));
  }
  for (const [key, caseReport] of baselineCases) {
    if (currentKeys.has(key)) continue;
    if (inSuite.has(caseReport.name)) notSelected.push(key);
    else cases.push(compareCase(key, undefined, caseReport));
  }
  const confidence = current.summary.confidence ?? DEFAULT_CONFIDENCE;
  const comparable = cases.filter((entry) => entry.pair && entry.change !== 'not-compared');
  const statistics = compareStatistics(
    comparable.map((entry) => entry.pair).filter((pair) => pair !== undefined),
    confidence,
  );
  comparable.forEach((entry, index) => {
    const caseStatistics = statistics.cases[index];
    if (!caseStatistics) return;
    entry.statistics = caseStatistics;
    entry.change = caseStatistics.verdict === 'no-significant-change' ? 'unchanged' : caseStatistics.verdict;
  });
  const counts: Record<CaseChange, number> = {
    regressed: 0,
    improved: 0,
    unchanged: 0,
    new: 0,
    removed: 0,
    'not-compared': 0,
  };
  for (const entry of cases) counts[entry.change] += 1;
  const passedShare = (pick: (pair: { current: CaseReport; baseline: CaseReport }) => CaseReport) =>
    comparable.length
      ? comparable.filter((entry) => entry.pair && pick(entry.pair).passed).length / comparable.length
      : 0;
  return {
    currentRunId: current.run_id,
    baselineRunId: baseline.run_id,
    baselineStartedAt: baseline.started_at,
    confidence,
    currentPassRate: passedShare((pair) => pair.current),
    baselinePassRate: passedShare((pair) => pair.baseline),
    compared: comparable.length,
    suite: statistics.suite,
    cost: compareCost(comparable.map((entry) => entry.pair).filter((pair) => pair !== undefined)),
    cases: cases.map(({ pair: _pair, ...entry }) => entry),
    counts,
    notSelected,
    differences: describeDifferences(current, baseline),
  };
}

/** The cost of a case's attempts, USD; null when any attempt's cost is unknown. */
function caseCost(caseReport: CaseReport): number | null {
  return caseReport.attempts.reduce<number | null>(
    (sum, attempt) => (sum === null || attempt.cost_usd === null ? null : sum + attempt.cost_usd),
    0,
  );
}

/** The mean cost of one attempt of a case; null when unknown or it has no attempt. */
function attemptCost(caseReport: CaseReport): number | null {
  const total = caseCost(caseReport);
  return total === null || caseReport.attempts.length === 0 ? null : total / caseReport.attempts.length;
}

function compareCost(pairs: readonly { current: CaseReport; baseline: CaseReport }[]): CostComparison {
  const side = (pick: (pair: { current: CaseReport; baseline: CaseReport }) => CaseReport) => {
    const total = pairs.reduce<number | null>((sum, pair) => {
      const cost = caseCost(pick(pair));
      return sum === null || cost === null ? null : sum + cost;
    }, 0);
    const passed = pairs.filter((pair) => pick(pair).passed).length;
    return { total, perPassed: total !== null && passed > 0 ? total / passed : null };
  };
  const baseline = side((pair) => pair.baseline);
  const current = side((pair) => pair.current);
  return {
    baseline: baseline.total,
    current: current.total,
    baselinePerPassed: baseline.perPassed,
    currentPerPassed: current.perPassed,
  };
}

/** `agent name "a" → "b"`, `model "x" → "y"`, `--repeat 1 → 3`, ... for what differs between two runs. */
function describeDifferences(current: RunReport, baseline: RunReport): string[] {
  const differences: string[] = [];
  const compare = (label: string, before: unknown, after: unknown) => {
    if (JSON.stringify(before) !== JSON.stringify(after))
      differences.push(`${label} ${show(before)} → ${show(after)}`);
  };
  compare('agent name', baseline.agent.name, current.agent.name);
  compare('agent file', baseline.agent.file, current.agent.file);
  compare('provider', baseline.agent.provider, current.agent.provider);
  compare('model', baseline.agent.model, current.agent.model);
  if (
    baseline.agent.suite_hash &&
    current.agent.suite_hash &&
    baseline.agent.suite_hash !== current.agent.suite_hash
  )
    differences.push(
      `the suite changed (test cases, metrics or thresholds): ${baseline.agent.suite_hash.slice(7, 14)} → ${current.agent.suite_hash.slice(7, 14)}`,
    );
  compare('--repeat', baseline.options.repeat, current.options.repeat);
  compare('--isolation', baseline.options.isolation, current.options.isolation);
  compare('--filter', baseline.options.filter, current.options.filter);
  compare('--tag', baseline.options.tags, current.options.tags);
  compare('--shard', baseline.options.shard, current.options.shard);
  compare('--case', baseline.options.cases, current.options.cases);
  compare('--sample', baseline.options.sample, current.options.sample);
  compare('--sample-seed', baseline.options.sample_seed, current.options.sample_seed);
  compare('--limit', baseline.options.limit, current.options.limit);
  compare('--allow-side-effects', baseline.options.allow_side_effects, current.options.allow_side_effects);
  compare('--max-processes', baseline.options.max_processes, current.options.max_processes);
  return differences;
}

function show(value: unknown): string {
  if (value === undefined) return '(none)';
  if (Array.isArray(value)) return value.join(',');
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function compareCase(
  name: string,
  current?: CaseReport,
  baseline?: CaseReport,
): CaseComparison & { pair?: { current: CaseReport; baseline: CaseReport } } {
  const currentStatus = current ? caseStatus(current) : undefined;
  const baselineStatus = baseline ? caseStatus(baseline) : undefined;
  const currentMetrics = current ? summarizeMetrics(current) : new Map<string, MetricSummary>();
  const baselineMetrics = baseline ? summarizeMetrics(baseline) : new Map<string, MetricSummary>();
  const metrics: MetricComparison[] = [];
  for (const [metricName, now] of currentMetrics) {
    metrics.push(compareMetric(metricName, now, baselineMetrics.get(metricName)));
  }
  for (const [metricName, before] of baselineMetrics) {
    if (!currentMetrics.has(metricName)) metrics.push(compareMetric(metricName, undefined, before));
  }
  const entry = {
    name,
    baselineStatus,
    currentStatus,
    metrics,
    ...(current && baseline
      ? { cost: { baseline: attemptCost(baseline), current: attemptCost(current) } }
      : {}),
  };
  if (!current) return { ...entry, change: 'removed' };
  if (!baseline) return { ...entry, change: 'new' };
  const reason = notComparedReason(current, baseline);
  if (reason !== undefined) return { ...entry, change: 'not-compared', notComparedReason: reason };
  // Decided once every pair is known (Holm adjusts over all of them): see compareRuns.
  return { ...entry, change: 'unchanged', pair: { current, baseline } };
}

function compareMetric(name: string, current?: MetricSummary, baseline?: MetricSummary): MetricComparison {
  if (!current)
    return { name, change: 'removed', baselineScore: baseline?.score, baselinePassed: baseline?.passed };
  if (!baseline) return { name, change: 'new', currentScore: current.score, currentPassed: current.passed };
  let change: MetricChange = 'unchanged';
  if (baseline.passed && !current.passed) change = 'newly-failing';
  if (!baseline.passed && current.passed) change = 'newly-passing';
  return {
    name,
    change,
    baselineScore: baseline.score,
    currentScore: current.score,
    delta: current.score - baseline.score,
    baselinePassed: baseline.passed,
    currentPassed: current.passed,
  };
}

/** Metrics of every attempt that ran (turn metrics as `turn N name`), merged by name. */
function summarizeMetrics(caseReport: CaseReport): Map<string, MetricSummary> {
  const ran = caseReport.attempts.filter((attempt) => attempt.error === undefined);
  const sources: Pick<CaseAttempt, 'metrics' | 'turns'>[] =
    caseReport.attempts.length === 0 ? [{ metrics: caseReport.metrics }] : ran;
  const collected = new Map<string, MetricOutcome[]>();
  for (const attempt of sources) {
    const outcomes = [
      ...keyByName(attempt.metrics, (metric) => metric.name),
      ...(attempt.turns ?? []).flatMap((turn, index) =>
        [...keyByName(turn.metrics, (metric) => metric.name)].map(
          ([key, metric]): [string, MetricOutcome] => [`turn ${index + 1} ${key}`, metric],
        ),
      ),
    ];
    for (const [key, metric] of outcomes) collected.set(key, [...(collected.get(key) ?? []), metric]);
  }
  const summaries = new Map<string, MetricSummary>();
  for (const [key, outcomes] of collected) {
    const score = outcomes.reduce((total, outcome) => total + outcome.score, 0) / outcomes.length;
    summaries.set(key, { score, passed: outcomes.every((outcome) => outcome.passed) });
  }
  return summaries;
}

/** Keys entries by name; a repeated name gets ` (2)`, ` (3)`, ... so nothing is dropped. */
function keyByName<T>(entries: readonly T[], nameOf: (entry: T) => string): Map<string, T> {
  const keyed = new Map<string, T>();
  for (const entry of entries) {
    const name = nameOf(entry);
    let key = name;
    for (let occurrence = 2; keyed.has(key); occurrence += 1) key = `${name} (${occurrence})`;
    keyed.set(key, entry);
  }
  return keyed;
}
