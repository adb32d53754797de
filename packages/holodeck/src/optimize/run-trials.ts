import { errorMessage } from '../support.js';
import { applyCandidate, type Candidate, changesKey } from './candidate.js';
import { spendOf } from './evaluation.js';
import { judgeCandidate } from './judge-candidate.js';
import { type OptimizationSearch, proposerField } from './optimization-search.js';
import { type Move, planMoves } from './plan-moves.js';
import { proposeInstructions } from './propose-instructions.js';
import type { FinishLine, TrialLine } from './trials-file.js';

/** What one move turned into: a candidate to run, a skipped move, or the end of the search. */
type MoveOutcome =
  | { kind: 'candidate'; candidate: Candidate; proposerCost: number }
  | { kind: 'skipped' }
  | { kind: 'stop'; stopped: FinishLine['stopped'] };

/** What the search remembers between moves. */
interface TrialsSoFar {
  /** The change sets already tried, so a move that would repeat one is skipped. */
  tried: Set<string>;
  /** Proposed instructions that were not accepted, shown to the proposer. */
  rejectedInstructions: string[];
  /** How many proposals were asked for (the proposer's sample index). */
  proposals: number;
}

/** The planned moves after the last one saved, each tried on top of the best so far, until a stop. */
export async function runTrials(
  search: OptimizationSearch,
  baseline: TrialLine,
): Promise<FinishLine['stopped']> {
  const byId = new Map(search.trials.map((line) => [line.candidate.id, line]));
  search.best = byId.get(search.trials.at(-1)?.best ?? 't0') ?? baseline;
  const sofar: TrialsSoFar = {
    tried: new Set(search.trials.map((line) => changesKey(line.candidate.changes))),
    rejectedInstructions: search.trials
      .filter(
        (line) =>
          line.decision && !line.decision.accepted && line.candidate.changes.instructions !== undefined,
      )
      .map((line) => line.candidate.changes.instructions as string),
    proposals: search.trials.filter((line) => line.candidate.origin === 'proposer').length,
  };
  const moves = planMoves(search.options.config, search.lastMove + 1 + search.options.maxTrials * 3 + 8);
  for (let move = search.lastMove + 1; move < moves.length; move += 1) {
    const done = search.trials.length - 1;
    if (done >= search.options.maxTrials) return 'max-trials';
    const reason = search.stoppedBy();
    if (reason) return reason;
    const step = moves[move];
    if (!step) break;
    const id = `t${done + 1}`;
    const outcome =
      step.kind === 'propose' ? await propose(search, move, id, sofar) : setValue(search, step, id);
    if (outcome.kind === 'stop') return outcome.stopped;
    if (outcome.kind === 'skipped') continue;
    const stopped = await runTrial(search, sofar, move, step, outcome.candidate, outcome.proposerCost);
    if (stopped) return stopped;
  }
  return 'exhausted';
}

/** A candidate with the proposer's instructions; a failed proposal is a skipped move. */
async function propose(
  search: OptimizationSearch,
  move: number,
  id: string,
  sofar: TrialsSoFar,
): Promise<MoveOutcome> {
  const options = search.options;
  if (!options.proposer) throw new Error('optimize: the instructions axis needs a proposer (this is a bug).');
  const best = search.best;
  const current = applyCandidate(options.agent, best.candidate.changes).instructions;
  let proposal: { instructions: string; rationale: string };
  try {
    proposal = await proposeInstructions(
      options.proposer,
      {
        current,
        failures: best.evaluation.failures,
        rejected: sofar.rejectedInstructions,
        sample: sofar.proposals,
      },
      search.signal,
    );
  } catch (error) {
    const proposerCost = options.proposerCost?.() ?? 0;
    search.spent += proposerCost;
    if (search.signal.aborted) return { kind: 'stop', stopped: search.stoppedBy() ?? 'interrupted' };
    await search.skip(move, `the proposer failed: ${errorMessage(error)}`, proposerCost);
    sofar.proposals += 1;
    return { kind: 'skipped' };
  }
  sofar.proposals += 1;
  const proposerCost = options.proposerCost?.() ?? 0;
  search.spent += proposerCost;
  if (options.maxCostUsd !== undefined && search.spent >= options.maxCostUsd) {
    // The proposal itself used up the budget: its candidate is not run.
    await search.skip(
      move,
      `proposing ${id} cost $${proposerCost.toFixed(4)} and reached the cost budget (--max-cost $${options.maxCostUsd.toFixed(2)}): its candidate was not run`,
      proposerCost,
    );
    return { kind: 'stop', stopped: 'max-cost' };
  }
  const candidate: Candidate = {
    id,
    changes: { ...best.candidate.changes, instructions: proposal.instructions },
    origin: 'proposer',
    parent: best.candidate.id,
    ...(proposal.rationale ? { rationale: proposal.rationale } : {}),
  };
  return { kind: 'candidate', candidate, proposerCost };
}

/** A candidate with one enumerated value set on top of the best so far. */
function setValue(search: OptimizationSearch, step: Extract<Move, { kind: 'set' }>, id: string): MoveOutcome {
  const best = search.best;
  const candidate: Candidate = {
    id,
    changes: { ...best.candidate.changes, ...step.changes },
    origin: step.axis,
    parent: best.candidate.id,
  };
  if (step.changes.tool_descriptions)
    candidate.changes.tool_descriptions = {
      ...best.candidate.changes.tool_descriptions,
      ...step.changes.tool_descriptions,
    };
  return { kind: 'candidate', candidate, proposerCost: 0 };
}

/** Runs and judges one candidate against the best; the stop when the run was stopped. */
async function runTrial(
  search: OptimizationSearch,
  sofar: TrialsSoFar,
  move: number,
  step: Move,
  candidate: Candidate,
  proposerCost: number,
): Promise<FinishLine['stopped'] | undefined> {
  const options = search.options;
  const key = changesKey(candidate.changes);
  if (sofar.tried.has(key)) {
    await search.skip(move, `${candidate.id} would repeat a candidate already tried`, proposerCost);
    return undefined;
  }
  sofar.tried.add(key);
  const best = search.best;
  const trial = search.trials.length;
  const started = new Date();
  const evaluation = await search.evaluate(candidate, options.split.train, 'train', `trial ${trial}`);
  const decision = judgeCandidate(best.evaluation, evaluation, {
    required: options.required,
    confidence: options.confidence,
    seed: options.config.seed,
  });
  const { estimate, lower, upper, confidence, method } = decision.improvement;
  const line: TrialLine = {
    type: 'trial',
    trial,
    move,
    started_at: started.toISOString(),
    duration_ms: Date.now() - started.getTime(),
    candidate,
    evaluation,
    ...proposerField(proposerCost),
    decision: {
      accepted: decision.accepted,
      code: decision.code,
      message: decision.message,
      improvement: { estimate, lower, upper, confidence, method },
    },
    best: decision.accepted ? candidate.id : best.candidate.id,
  };
  search.spent += spendOf(evaluation);
  if (evaluation.interrupted) {
    // Not judged: a stopped trial is run again on --resume.
    return search.stoppedBy() ?? (options.maxCostUsd !== undefined ? 'max-cost' : 'interrupted');
  }
  await search.save(line);
  search.trials.push(line);
  if (decision.accepted) search.best = line;
  else if (candidate.changes.instructions !== undefined && step.kind === 'propose')
    sofar.rejectedInstructions.push(candidate.changes.instructions);
  search.emit({ type: 'trial-finished', line });
  return undefined;
}
