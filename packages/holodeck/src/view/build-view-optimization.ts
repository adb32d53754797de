import { clusterPassRateInterval } from 'verdict-stats';
import type { Evaluation } from '../optimize/evaluation.js';
import type { StoredOptimization, TrialLine, TrialsLine } from '../optimize/trials-file.js';
import type { ViewShownInterval } from './view-data.js';
import type { ViewOptimization, ViewOptimizationSummary, ViewTrial } from './view-optimization.js';

function shown(interval: ViewShownInterval): ViewShownInterval {
  return {
    estimate: interval.estimate,
    lower: interval.lower,
    upper: interval.upper,
    confidence: interval.confidence,
  };
}

/** The pass rate of an evaluation with its interval, the attempts of one case counted as a cluster. */
function passRateOf(evaluation: Evaluation, confidence: number): ViewShownInterval {
  const interval = clusterPassRateInterval(
    evaluation.cases.map((tally) => ({ passes: tally.passes, attempts: tally.attempts })),
    confidence,
  );
  return { estimate: evaluation.pass_rate, lower: interval.lower, upper: interval.upper, confidence };
}

function costOfLine(line: TrialsLine): number {
  switch (line.type) {
    case 'trial':
      return (line.evaluation.cost_usd ?? 0) + (line.proposer_cost_usd ?? 0);
    case 'skip':
      return line.proposer_cost_usd ?? 0;
    case 'holdout':
      return (line.baseline.cost_usd ?? 0) + (line.candidate.cost_usd ?? 0);
    default:
      return 0;
  }
}

/** The page of one optimization, built from its trials.jsonl lines (the first is the start line). */
export function toViewOptimization(stored: StoredOptimization): ViewOptimization {
  const [start] = stored.lines;
  if (start?.type !== 'start') throw new Error(`${stored.file} does not start with a start line`);
  const confidence = start.settings.confidence;
  const trialLines = stored.lines.filter((line): line is TrialLine => line.type === 'trial');
  const byId = new Map(trialLines.map((line) => [line.candidate.id, line]));
  const instructionsOf = (id: string | undefined): string | null => {
    const line = id === undefined ? undefined : byId.get(id);
    if (line?.candidate.changes.instructions !== undefined) return line.candidate.changes.instructions;
    return start.baseline_instructions ?? null;
  };
  const trials: ViewTrial[] = trialLines.map((line) => ({
    trial: line.trial,
    id: line.candidate.id,
    origin: line.candidate.origin,
    parent: line.candidate.parent ?? null,
    changes: line.candidate.changes,
    parent_instructions: line.trial === 0 ? null : instructionsOf(line.candidate.parent),
    rationale: line.candidate.rationale ?? null,
    started_at: line.started_at,
    duration_ms: line.duration_ms,
    pass_rate: passRateOf(line.evaluation, confidence),
    cases: line.evaluation.cases.length,
    attempts: line.evaluation.cases.reduce((sum, tally) => sum + tally.attempts, 0),
    cost_usd:
      line.evaluation.cost_usd === null ? null : line.evaluation.cost_usd + (line.proposer_cost_usd ?? 0),
    kills: line.evaluation.kills,
    holds: line.evaluation.holds,
    decision: line.decision
      ? {
          accepted: line.decision.accepted,
          code: line.decision.code,
          message: line.decision.message,
          improvement: shown(line.decision.improvement),
        }
      : null,
    best: line.best,
  }));
  const holdout = stored.lines.findLast((line) => line.type === 'holdout');
  const finish = stored.lines.findLast((line) => line.type === 'finish');
  return {
    optimize_id: start.optimize_id,
    started_at: start.started_at,
    agent: { name: start.agent.name, file: start.agent.file },
    split: start.split,
    settings: start.settings,
    trials,
    skipped: stored.lines.flatMap((line) =>
      line.type === 'skip' ? [{ move: line.move, at: line.at, reason: line.reason }] : [],
    ),
    holdout: holdout
      ? {
          winner: holdout.winner,
          baseline_pass_rate: passRateOf(holdout.baseline, confidence),
          winner_pass_rate: passRateOf(holdout.candidate, confidence),
          improvement: shown(holdout.improvement),
          agrees: holdout.agrees,
          message: holdout.message,
        }
      : null,
    finish: finish
      ? {
          finished_at: finish.finished_at,
          stopped: finish.stopped,
          winner: finish.winner,
          optimized_file: finish.optimized_file,
        }
      : null,
    spent_usd: stored.lines.reduce((sum, line) => sum + costOfLine(line), 0),
  };
}

/** The runs page's line of an optimization. */
export function toOptimizationSummary(stored: StoredOptimization): ViewOptimizationSummary {
  const view = toViewOptimization(stored);
  const baseline = view.trials.find((trial) => trial.trial === 0);
  const bestId = view.trials.at(-1)?.best ?? null;
  const best = view.trials.find((trial) => trial.id === bestId);
  return {
    optimize_id: view.optimize_id,
    started_at: view.started_at,
    agent: view.agent.name,
    trials: view.trials.filter((trial) => trial.trial > 0).length,
    baseline_pass_rate: baseline?.pass_rate.estimate ?? null,
    best: best && best.trial > 0 ? best.id : null,
    best_pass_rate: best && best.trial > 0 ? best.pass_rate.estimate : null,
    holdout_agrees: view.holdout?.agrees ?? null,
    stopped: view.finish?.stopped ?? null,
  };
}
