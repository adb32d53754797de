import { cohenKappa, type Interval, wilsonScoreInterval } from 'verdict-stats';

/** A pass/fail verdict. */
export type Verdict = 'pass' | 'fail';

/** Human label against judge verdict, counted: rows the human, columns the judge. */
export interface ConfusionMatrix {
  /** Both passed it. */
  true_pass: number;
  /** The human failed it, the judge passed it: the judge lets a bad answer through. */
  false_pass: number;
  /** The human passed it, the judge failed it. */
  false_fail: number;
  /** Both failed it. */
  true_fail: number;
}

/** Cohen's kappa as a report shows it. */
export interface KappaFigure {
  /** Null when undefined: human and judge each put every example in one and the same class. */
  estimate: number | null;
  standard_error: number | null;
  /** Null with the estimate. */
  interval: Interval | null;
}

/** How far a judge agrees with the human labels of the same examples. */
export interface AgreementStatistics {
  /** Examples with both a human label and a judge verdict. */
  judged: number;
  confusion: ConfusionMatrix;
  /** Share of examples both rated alike, with its Wilson interval; null without examples. */
  agreement: Interval | null;
  kappa: KappaFigure;
  /** Share the humans passed (the base rate), with its interval; null without examples. */
  base_rate: Interval | null;
  /** Share the judge passed. */
  judge_pass_rate: Interval | null;
  /** Of the examples the humans failed, the share the judge passed; null when the humans failed none. */
  false_pass_rate: Interval | null;
  /** Of the examples the humans passed, the share the judge failed; null when the humans passed none. */
  false_fail_rate: Interval | null;
}

/** Counts the pairs (human, judge) into a confusion matrix. */
export function confusionOf(pairs: readonly { human: Verdict; judge: Verdict }[]): ConfusionMatrix {
  const matrix: ConfusionMatrix = { true_pass: 0, false_pass: 0, false_fail: 0, true_fail: 0 };
  for (const { human, judge } of pairs) {
    if (human === 'pass') matrix[judge === 'pass' ? 'true_pass' : 'false_fail'] += 1;
    else matrix[judge === 'pass' ? 'false_pass' : 'true_fail'] += 1;
  }
  return matrix;
}

/**
 * Agreement of a judge with human labels: raw agreement, Cohen's kappa with its asymptotic
 * interval (verdict-stats: Fleiss, Cohen & Everitt 1969), the base rate, and the two error rates,
 * each proportion with its Wilson interval at `confidence`.
 */
export function agreementStatistics(matrix: ConfusionMatrix, confidence: number): AgreementStatistics {
  const { true_pass, false_pass, false_fail, true_fail } = matrix;
  const examples = true_pass + false_pass + false_fail + true_fail;
  const humanPassed = true_pass + false_fail;
  const humanFailed = false_pass + true_fail;
  const share = (part: number, whole: number) =>
    whole === 0 ? null : wilsonScoreInterval(part, whole, confidence);
  let kappa: KappaFigure = { estimate: null, standard_error: null, interval: null };
  if (examples > 0) {
    const result = cohenKappa(
      [
        [true_pass, false_fail],
        [false_pass, true_fail],
      ],
      confidence,
    );
    kappa = { estimate: result.kappa, standard_error: result.standardError, interval: result.interval };
  }
  return {
    judged: examples,
    confusion: matrix,
    agreement: share(true_pass + true_fail, examples),
    kappa,
    base_rate: share(humanPassed, examples),
    judge_pass_rate: share(true_pass + false_pass, examples),
    false_pass_rate: share(false_pass, humanFailed),
    false_fail_rate: share(false_fail, humanPassed),
  };
}

/** How often repeated judgements of one example disagree. */
export interface SelfConsistency {
  /** Judgements per example. */
  samples: number;
  /** Examples judged `samples` times without an error. */
  examples: number;
  /** Of those, how many got both verdicts. */
  flipped: number;
  /** flipped / examples with its Wilson interval; null with one sample or no example. */
  flip_rate: Interval | null;
}

/** Self-consistency of repeated verdicts (one list per example; errored examples left out). */
export function selfConsistency(
  verdicts: readonly (readonly Verdict[])[],
  samples: number,
  confidence: number,
): SelfConsistency {
  const complete = verdicts.filter((list) => list.length === samples);
  const flipped = complete.filter((list) => new Set(list).size > 1).length;
  return {
    samples,
    examples: complete.length,
    flipped,
    flip_rate:
      samples < 2 || complete.length === 0 ? null : wilsonScoreInterval(flipped, complete.length, confidence),
  };
}
