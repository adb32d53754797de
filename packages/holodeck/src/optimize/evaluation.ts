import type { CaseReport, RunReport } from '../runner/report/run-report.js';

/** One case of an evaluation: its passing attempts out of its finished ones. */
export interface CaseTally {
  name: string;
  passes: number;
  attempts: number;
  /** The case's verdict over its attempts (as `holodeck test` gives it). */
  passed: boolean;
  errored: boolean;
}

/** A failing case as the proposer reads it: what was asked, answered, and why it failed. */
export interface FailureNote {
  case: string;
  input: string;
  response: string;
  /** The failing metrics' reasons (a judge's reason, a check's message), and a run error. */
  reasons: string[];
}

/** A candidate run on one half of the split. */
export interface Evaluation {
  split: 'train' | 'holdout';
  run_id: string;
  cases: CaseTally[];
  /** Σ passes / Σ attempts over the cases. */
  pass_rate: number;
  /** Known spend of the runs' agent calls; null when the provider's prices are unknown. */
  cost_usd: number | null;
  /** Known spend of their judge calls (absent in trials saved before it was counted). */
  judge_cost_usd?: number | null;
  /** Novarch judge verdicts across every attempt. */
  kills: number;
  holds: number;
  /** Requests with no recording under --replay (their attempts errored). */
  unrecorded: number;
  interrupted: boolean;
  failures: FailureNote[];
}

const NOTE_LIMIT = 1500;

function clip(text: string): string {
  return text.length > NOTE_LIMIT ? `${text.slice(0, NOTE_LIMIT)}…` : text;
}

function failureOf(report: CaseReport): FailureNote {
  const attempt = report.attempts.find((candidate) => !candidate.passed) ?? report.attempts[0];
  const metrics = attempt?.metrics ?? report.metrics;
  const reasons = metrics
    .filter((metric) => !metric.passed)
    .map((metric) => `${metric.name}: ${clip(metric.reason)}`);
  const error = attempt?.error ?? report.error;
  return {
    case: report.name,
    input: clip(report.input),
    response: clip(attempt?.response ?? report.response),
    reasons: error ? [...reasons, `error: ${clip(error)}`] : reasons,
  };
}

/** The tallies an optimizer needs from a run report of one candidate on one half. */
export function evaluationOf(report: RunReport, split: 'train' | 'holdout', unrecorded: number): Evaluation {
  const cases = report.cases.map((testCase) => {
    const finished = testCase.attempts.filter((attempt) => !attempt.interrupted);
    return {
      name: testCase.name,
      passes: finished.filter((attempt) => attempt.passed).length,
      attempts: finished.length,
      passed: testCase.passed,
      errored: testCase.errored,
    };
  });
  const passes = cases.reduce((sum, tally) => sum + tally.passes, 0);
  const attempts = cases.reduce((sum, tally) => sum + tally.attempts, 0);
  let kills = 0;
  let holds = 0;
  for (const testCase of report.cases)
    for (const attempt of testCase.attempts)
      for (const verdict of attempt.governance?.verdicts ?? []) {
        if (verdict.verdict === 'kill') kills += 1;
        if (verdict.verdict === 'hold') holds += 1;
      }
  return {
    split,
    run_id: report.run_id,
    cases,
    pass_rate: attempts ? passes / attempts : 0,
    cost_usd: report.summary.cost_usd,
    ...(report.summary.judge_cost_usd !== undefined ? { judge_cost_usd: report.summary.judge_cost_usd } : {}),
    kills,
    holds,
    unrecorded,
    interrupted: report.interrupted === true,
    failures: report.cases.filter((testCase) => !testCase.passed).map(failureOf),
  };
}

/** What an evaluation's runs spent, agent and judge, as far as it is known (max_cost counts both). */
export function spendOf(evaluation: Pick<Evaluation, 'cost_usd' | 'judge_cost_usd'>): number {
  return (evaluation.cost_usd ?? 0) + (evaluation.judge_cost_usd ?? 0);
}
