import type { Candidate } from './candidate.js';
import type { Evaluation } from './evaluation.js';
import { describeImprovement, improvementOf } from './judge-candidate.js';
import type { HoldoutLine, TrialLine } from './trials-file.js';

/** How confirmOnHoldout runs a candidate on the holdout cases. */
export interface HoldoutSettings {
  evaluate: (candidate: Candidate, cases: readonly string[], label: string) => Promise<Evaluation>;
  cases: readonly string[];
  confidence: number;
  seed: number;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/**
 * Runs the agent as written and the winner once each on the holdout cases, which no decision
 * saw. The holdout agrees when the winner is ahead there too (for a winner accepted as cheaper:
 * no fewer passes at a lower cost); the interval says how sure that is. Undefined when a run was
 * stopped (Ctrl+C, time, budget) before it finished.
 */
export async function confirmOnHoldout(
  winner: TrialLine,
  baseline: TrialLine,
  settings: HoldoutSettings,
): Promise<HoldoutLine | undefined> {
  const before = await settings.evaluate(
    baseline.candidate,
    settings.cases,
    'holdout: agent.yaml as written',
  );
  if (before.interrupted) return undefined;
  const after = await settings.evaluate(winner.candidate, settings.cases, `holdout: ${winner.candidate.id}`);
  if (after.interrupted) return undefined;
  const interval = improvementOf(before, after, settings.confidence, settings.seed);
  const cheaper = winner.decision?.code === 'cheaper';
  const agrees = cheaper
    ? interval.estimate >= 0 &&
      after.cost_usd !== null &&
      before.cost_usd !== null &&
      after.cost_usd < before.cost_usd
    : interval.estimate > 0;
  const change = `holdout pass rate ${percent(before.pass_rate)} → ${percent(after.pass_rate)}, ${describeImprovement(interval)}`;
  const sure =
    interval.lower > 0 ? 'the interval excludes zero' : 'the interval includes zero (few holdout cases)';
  return {
    type: 'holdout',
    winner: winner.candidate.id,
    baseline: before,
    candidate: after,
    improvement: {
      estimate: interval.estimate,
      lower: interval.lower,
      upper: interval.upper,
      confidence: interval.confidence,
      method: interval.method,
    },
    agrees,
    message: agrees
      ? `the holdout agrees: ${change}${cheaper ? '' : `; ${sure}`}`
      : `the holdout does NOT agree: ${change}`,
  };
}
