import { type BootstrapInterval, pairedBootstrapDifference } from 'verdict-stats';
import type { Evaluation } from './evaluation.js';

/** Why a candidate was accepted or rejected; tests and the viewer match on it. */
export type DecisionCode =
  | 'better'
  | 'cheaper'
  | 'noise'
  | 'worse'
  | 'governance'
  | 'required'
  | 'unrecorded'
  | 'errored'
  | 'interrupted';

/** The verdict on a candidate against the best so far, on the train cases. */
export interface CandidateDecision {
  accepted: boolean;
  code: DecisionCode;
  message: string;
  /** Candidate − best pass rate over the train cases, with its paired bootstrap interval. */
  improvement: BootstrapInterval;
}

/** Options of judgeCandidate. */
export interface JudgeCandidateOptions {
  /** Cases that must not break (`evaluations.gate.required`); 'all' for every case. */
  required: readonly string[] | 'all';
  confidence: number;
  seed: number;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/** `+16.7 pts [+4.2, +29.2] at 95%`. */
export function describeImprovement(interval: BootstrapInterval): string {
  const points = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}`;
  return `${points(interval.estimate)} pts [${points(interval.lower)}, ${points(interval.upper)}] at ${Math.round(interval.confidence * 100)}%`;
}

/** The paired bootstrap of candidate − baseline over the cases both ran. */
export function improvementOf(
  baseline: Evaluation,
  candidate: Evaluation,
  confidence: number,
  seed: number,
): BootstrapInterval {
  const before = new Map(baseline.cases.map((tally) => [tally.name, tally]));
  const pairs = candidate.cases.flatMap((tally) => {
    const other = before.get(tally.name);
    return other && other.attempts > 0 && tally.attempts > 0
      ? [
          {
            baseline: { passes: other.passes, attempts: other.attempts },
            current: { passes: tally.passes, attempts: tally.attempts },
          },
        ]
      : [];
  });
  return pairedBootstrapDifference(pairs, { confidence, seed });
}

/**
 * Accepts a candidate only when it cannot be fooling us: every request had a recording (under
 * --replay), no more Novarch kills or holds than the best, nothing errored or was interrupted, no
 * required case that passed under the best now fails, and the interval of its train improvement
 * lies above zero. Same passes on every case at a lower cost is accepted as cheaper (the objective
 * is pass rate, then cost).
 */
export function judgeCandidate(
  best: Evaluation,
  candidate: Evaluation,
  options: JudgeCandidateOptions,
): CandidateDecision {
  const improvement = improvementOf(best, candidate, options.confidence, options.seed);
  const reject = (code: DecisionCode, message: string): CandidateDecision => ({
    accepted: false,
    code,
    message,
    improvement,
  });
  if (candidate.interrupted) return reject('interrupted', 'stopped before every case finished');
  if (candidate.unrecorded > 0)
    return reject(
      'unrecorded',
      `${candidate.unrecorded} request(s) had no recording: not run live; record them with --replay --record-missing`,
    );
  // Before errors: a run Novarch killed ends as an errored case, and the kill is the reason.
  if (candidate.kills > best.kills || candidate.holds > best.holds)
    return reject(
      'governance',
      `Novarch kills ${best.kills} → ${candidate.kills}, holds ${best.holds} → ${candidate.holds}: a candidate may not add either`,
    );
  const errored = candidate.cases.filter((tally) => tally.errored).map((tally) => tally.name);
  if (errored.length) return reject('errored', `case(s) errored: ${errored.join(', ')}`);
  const passedBefore = new Set(best.cases.filter((tally) => tally.passed).map((tally) => tally.name));
  const broken = candidate.cases
    .filter((tally) => !tally.passed && passedBefore.has(tally.name))
    .filter((tally) => options.required === 'all' || options.required.includes(tally.name))
    .map((tally) => tally.name);
  if (broken.length) return reject('required', `breaks required case(s): ${broken.join(', ')}`);
  const change = `pass rate ${percent(best.pass_rate)} → ${percent(candidate.pass_rate)}, ${describeImprovement(improvement)}`;
  if (improvement.lower > 0) return { accepted: true, code: 'better', message: change, improvement };
  const sameEverywhere = candidate.cases.every((tally) => {
    const other = best.cases.find((before) => before.name === tally.name);
    return other !== undefined && other.passes === tally.passes && other.attempts === tally.attempts;
  });
  if (
    sameEverywhere &&
    best.cost_usd !== null &&
    candidate.cost_usd !== null &&
    candidate.cost_usd < best.cost_usd
  )
    return {
      accepted: true,
      code: 'cheaper',
      message: `the same passes on every case for $${candidate.cost_usd.toFixed(4)} instead of $${best.cost_usd.toFixed(4)}`,
      improvement,
    };
  if (improvement.estimate < 0) return reject('worse', change);
  return reject('noise', `${change}: the interval does not exclude zero`);
}
