import { OptimizationSearch } from './optimization-search.js';
import type { OptimizeOptions, OptimizeResult } from './optimize-options.js';
import { runTrials } from './run-trials.js';
import type { FinishLine } from './trials-file.js';

export type { OptimizeEvent, OptimizeOptions, OptimizeResult } from './optimize-options.js';

/**
 * `holodeck test optimize`: runs the agent as written on the train cases (trial 0), then one
 * candidate per planned move on top of the best so far, each with `repeats` attempts per case;
 * keeps a candidate only when judgeCandidate accepts it; confirms the winner once on the holdout
 * cases. Every trial is appended to trials.jsonl as it is judged, so a stopped search resumes at
 * the next move. Budgets (trials, cost, time) stop it between trials; time and Ctrl+C also stop a
 * running trial, which is then not judged.
 */
export async function runOptimization(
  options: OptimizeOptions,
): Promise<Omit<OptimizeResult, 'finish'> & { stopped: FinishLine['stopped'] }> {
  const search = new OptimizationSearch(options);
  try {
    const baseline = await search.runBaseline();
    if (baseline.interrupted) {
      return {
        baseline: baseline.line,
        trials: [],
        spentUsd: search.spent,
        stopped: search.stoppedBy() ?? 'interrupted',
      };
    }
    let stopped = await runTrials(search, baseline.line);
    const winner = search.best.trial === 0 ? undefined : search.best;
    let holdout = search.savedHoldout(winner);
    if (
      winner &&
      !holdout &&
      options.split.holdout.length &&
      (stopped === 'exhausted' || stopped === 'max-trials' || stopped === 'max-cost')
    ) {
      holdout = await search.confirmWinner(winner, baseline.line);
      if (!holdout) stopped = search.stoppedBy() ?? 'interrupted';
    }
    return {
      baseline: baseline.line,
      trials: search.trials.filter((line) => line.trial > 0),
      ...(winner ? { winner } : {}),
      ...(holdout ? { holdout } : {}),
      spentUsd: search.spent,
      stopped,
    };
  } finally {
    search.close();
  }
}
