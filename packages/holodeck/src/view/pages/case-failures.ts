import type { ViewAttempt, ViewCase, ViewMetric } from '../view-data.js';
import { score } from './format-values.js';

/** A metric that did not pass, and the turn it belongs to (a conversation's own metrics). */
export interface MetricFailure {
  metric: ViewMetric;
  turn?: number;
}

/** An attempt's failing metrics: the case-level ones, then each turn's. */
export function failuresOfAttempt(attempt: ViewAttempt): MetricFailure[] {
  return [
    ...attempt.metrics.filter((metric) => !metric.passed).map((metric) => ({ metric })),
    ...(attempt.turns ?? []).flatMap((turn, index) =>
      turn.metrics.filter((metric) => !metric.passed).map((metric) => ({ metric, turn: index + 1 })),
    ),
  ];
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** `bleu 0.41 < 0.60`, `turn 2 tone failed`, `faithfulness could not run: …` (as the terminal summary). */
export function describeFailure(failure: MetricFailure): string {
  const { metric } = failure;
  const name = failure.turn === undefined ? metric.name : `turn ${failure.turn} ${metric.name}`;
  if (metric.error !== undefined) return `${name} could not run: ${firstLine(metric.error)}`;
  if (metric.threshold === undefined) return `${name} failed`;
  return `${name} ${score(metric.score)} < ${score(metric.threshold)}`;
}

/**
 * Why a case did not pass, as short lines (the run table's "Why" column): the run error of an
 * errored case; otherwise the failing metrics of its first failed attempt, with the attempt
 * count when it was repeated. Empty for a case whose every attempt passed.
 */
export function whyCaseFailed(testCase: ViewCase): string[] {
  if (testCase.interrupted) return ['interrupted before it finished'];
  if (testCase.errored) return [firstLine(testCase.error ?? 'the agent run failed')];
  const failed = testCase.attempts.filter((attempt) => !attempt.passed);
  if (!failed.length) return [];
  const lines: string[] = [];
  if (testCase.attempts.length > 1)
    lines.push(`${testCase.attempts.length - failed.length} of ${testCase.attempts.length} attempts passed`);
  const first = failed.find((attempt) => attempt.error === undefined);
  if (first) lines.push(...failuresOfAttempt(first).map(describeFailure));
  else if (failed[0]?.error !== undefined)
    lines.push(`attempt ${failed[0].attempt} errored: ${firstLine(failed[0].error)}`);
  return lines;
}

/** Every metric name of the cases, in first-seen order (turn metrics as `turn N name`). */
export function metricColumns(cases: readonly ViewCase[]): string[] {
  const names = new Set<string>();
  for (const testCase of cases) {
    const attempt = testCase.attempts[0];
    if (!attempt) continue;
    for (const metric of attempt.metrics) names.add(metric.name);
    (attempt.turns ?? []).forEach((turn, index) => {
      for (const metric of turn.metrics) names.add(`turn ${index + 1} ${metric.name}`);
    });
  }
  return [...names];
}

/** The case's metric of a column, from its first attempt. */
export function metricOfColumn(testCase: ViewCase, column: string): ViewMetric | undefined {
  const attempt = testCase.attempts[0];
  if (!attempt) return undefined;
  const turn = /^turn (\d+) (.+)$/.exec(column);
  if (turn) {
    const found = attempt.turns?.[Number(turn[1]) - 1]?.metrics.find((metric) => metric.name === turn[2]);
    if (found) return found;
  }
  return attempt.metrics.find((metric) => metric.name === column);
}
