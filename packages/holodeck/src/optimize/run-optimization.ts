import type { LoadedAgent, OptimizeConfig } from '../config/index.js';
import { InterruptedError } from '../errors.js';
import type { JudgeClient } from '../evals/metric.js';
import type { CaseReport } from '../runner/report/run-report.js';
import { errorMessage } from '../support.js';
import { applyCandidate, type Candidate, changesKey } from './candidate.js';
import { confirmOnHoldout } from './confirm-on-holdout.js';
import { type EvaluationSettings, evaluateCandidate } from './evaluate-candidate.js';
import { spendOf } from './evaluation.js';
import { judgeCandidate } from './judge-candidate.js';
import { planMoves } from './plan-moves.js';
import { proposeInstructions } from './propose-instructions.js';
import type { CaseSplit } from './split-cases.js';
import {
  appendTrialsLine,
  type FinishLine,
  type HoldoutLine,
  type StartLine,
  type TrialLine,
  type TrialsLine,
} from './trials-file.js';

/** What the optimizer tells its caller as it goes (the CLI's progress). */
export type OptimizeEvent =
  | {
      type: 'evaluation-started';
      label: string;
      candidate: Candidate;
      split: 'train' | 'holdout';
      cases: number;
      attempts: number;
    }
  | { type: 'case-finished'; report: CaseReport }
  | { type: 'trial-finished'; line: TrialLine }
  | { type: 'skipped'; reason: string }
  | { type: 'holdout-finished'; line: HoldoutLine }
  | { type: 'note'; message: string };

/** Options of runOptimization. */
export interface OptimizeOptions {
  agent: LoadedAgent;
  config: OptimizeConfig;
  split: CaseSplit;
  /** The trials.jsonl to append to; its folder is the optimization's. */
  trialsFile: string;
  /** The start line (written by the caller when the optimization is new). */
  start: StartLine;
  /** Lines already saved (--resume): their trials are not run again. */
  previous: readonly TrialsLine[];
  maxTrials: number;
  maxCostUsd?: number;
  /** Epoch ms after which no new trial starts and a running one is stopped. */
  deadline?: number;
  confidence: number;
  /** Cases that must not break (`evaluations.gate.required`). */
  required: readonly string[] | 'all';
  proposer?: JudgeClient;
  /** What the proposer's calls cost since this was last called (USD), counted in maxCostUsd. */
  proposerCost?: () => number;
  evaluation: Omit<EvaluationSettings, 'signal' | 'maxCostUsd' | 'onCaseFinished'>;
  signal?: AbortSignal;
  onEvent?: (event: OptimizeEvent) => void;
}

/** What an optimization ended with. */
export interface OptimizeResult {
  baseline: TrialLine;
  trials: TrialLine[];
  winner?: TrialLine;
  holdout?: HoldoutLine;
  finish: FinishLine;
  spentUsd: number;
}

/** The known spend a saved line records: agent runs and judges, and the proposer's calls. */
function costOf(line: TrialsLine): number {
  switch (line.type) {
    case 'trial':
      return spendOf(line.evaluation) + (line.proposer_cost_usd ?? 0);
    case 'skip':
      return line.proposer_cost_usd ?? 0;
    case 'holdout':
      return spendOf(line.baseline) + spendOf(line.candidate);
    default:
      return 0;
  }
}

/** `{ proposer_cost_usd }` when proposing cost something. */
function proposerField(cost: number): { proposer_cost_usd?: number } {
  return cost > 0 ? { proposer_cost_usd: cost } : {};
}

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
  const { agent, config, split } = options;
  const emit = options.onEvent ?? (() => {});
  const trials = options.previous.filter((line): line is TrialLine => line.type === 'trial');
  const lastMove = Math.max(
    -1,
    ...options.previous.flatMap((line) => (line.type === 'trial' || line.type === 'skip' ? [line.move] : [])),
  );
  let spent = options.previous.reduce((sum, line) => sum + costOf(line), 0);
  const controller = new AbortController();
  const stop = (reason: unknown) => controller.abort(reason);
  options.signal?.addEventListener('abort', () => stop(options.signal?.reason), { once: true });
  const timer =
    options.deadline !== undefined
      ? setTimeout(() => stop(new InterruptedError('max-time')), Math.max(0, options.deadline - Date.now()))
      : undefined;
  const stoppedBy = (): FinishLine['stopped'] | undefined => {
    if (controller.signal.aborted)
      return controller.signal.reason instanceof InterruptedError &&
        controller.signal.reason.message === 'max-time'
        ? 'max-time'
        : 'interrupted';
    if (options.deadline !== undefined && Date.now() >= options.deadline) return 'max-time';
    if (options.maxCostUsd !== undefined && spent >= options.maxCostUsd) return 'max-cost';
    return undefined;
  };
  const evaluate = (
    candidate: Candidate,
    cases: readonly string[],
    which: 'train' | 'holdout',
    label: string,
  ) => {
    emit({
      type: 'evaluation-started',
      label,
      candidate,
      split: which,
      cases: cases.length,
      attempts: cases.length * config.repeats,
    });
    return evaluateCandidate(agent, candidate, cases, which, {
      ...options.evaluation,
      signal: controller.signal,
      ...(options.maxCostUsd !== undefined ? { maxCostUsd: Math.max(0, options.maxCostUsd - spent) } : {}),
      onCaseFinished: (report) => emit({ type: 'case-finished', report }),
    });
  };
  const save = async (line: TrialsLine) => {
    await appendTrialsLine(options.trialsFile, line);
  };

  try {
    let baseline = trials.find((line) => line.trial === 0);
    if (!baseline) {
      const candidate: Candidate = { id: 't0', changes: {}, origin: 'baseline' };
      const started = new Date();
      const evaluation = await evaluate(candidate, split.train, 'train', 'trial 0 (agent.yaml as written)');
      baseline = {
        type: 'trial',
        trial: 0,
        move: -1,
        started_at: started.toISOString(),
        duration_ms: Date.now() - started.getTime(),
        candidate,
        evaluation,
        decision: null,
        best: 't0',
      };
      spent += costOf(baseline);
      if (evaluation.interrupted)
        return { baseline, trials: [], spentUsd: spent, stopped: stoppedBy() ?? 'interrupted' };
      if (evaluation.unrecorded > 0)
        emit({
          type: 'note',
          message: `${evaluation.unrecorded} request(s) of agent.yaml as written had no recording (their cases errored): record the suite with holodeck test --record`,
        });
      await save(baseline);
      trials.push(baseline);
      emit({ type: 'trial-finished', line: baseline });
    }
    const byId = new Map(trials.map((line) => [line.candidate.id, line]));
    let best: TrialLine = byId.get(trials.at(-1)?.best ?? 't0') ?? baseline;
    const tried = new Set(trials.map((line) => changesKey(line.candidate.changes)));
    const rejectedInstructions = trials
      .filter(
        (line) =>
          line.decision && !line.decision.accepted && line.candidate.changes.instructions !== undefined,
      )
      .map((line) => line.candidate.changes.instructions as string);
    const moves = planMoves(config, lastMove + 1 + options.maxTrials * 3 + 8);
    let proposals = trials.filter((line) => line.candidate.origin === 'proposer').length;
    let stopped: FinishLine['stopped'] = 'exhausted';
    for (let move = lastMove + 1; move < moves.length; move += 1) {
      const done = trials.length - 1;
      if (done >= options.maxTrials) {
        stopped = 'max-trials';
        break;
      }
      const reason = stoppedBy();
      if (reason) {
        stopped = reason;
        break;
      }
      const step = moves[move];
      if (!step) break;
      let candidate: Candidate;
      const id = `t${done + 1}`;
      let proposerCost = 0;
      if (step.kind === 'propose') {
        if (!options.proposer)
          throw new Error('optimize: the instructions axis needs a proposer (this is a bug).');
        const current = applyCandidate(agent, best.candidate.changes).instructions;
        let proposal: { instructions: string; rationale: string };
        try {
          proposal = await proposeInstructions(
            options.proposer,
            {
              current,
              failures: best.evaluation.failures,
              rejected: rejectedInstructions,
              sample: proposals,
            },
            controller.signal,
          );
        } catch (error) {
          proposerCost = options.proposerCost?.() ?? 0;
          spent += proposerCost;
          if (controller.signal.aborted) {
            stopped = stoppedBy() ?? 'interrupted';
            break;
          }
          const line = {
            type: 'skip' as const,
            move,
            at: new Date().toISOString(),
            reason: `the proposer failed: ${errorMessage(error)}`,
            ...proposerField(proposerCost),
          };
          await save(line);
          emit({ type: 'skipped', reason: line.reason });
          proposals += 1;
          continue;
        }
        proposals += 1;
        proposerCost = options.proposerCost?.() ?? 0;
        spent += proposerCost;
        if (options.maxCostUsd !== undefined && spent >= options.maxCostUsd) {
          // The proposal itself used up the budget: its candidate is not run.
          const line = {
            type: 'skip' as const,
            move,
            at: new Date().toISOString(),
            reason: `proposing ${id} cost $${proposerCost.toFixed(4)} and reached the cost budget (--max-cost $${options.maxCostUsd.toFixed(2)}): its candidate was not run`,
            ...proposerField(proposerCost),
          };
          await save(line);
          emit({ type: 'skipped', reason: line.reason });
          stopped = 'max-cost';
          break;
        }
        candidate = {
          id,
          changes: { ...best.candidate.changes, instructions: proposal.instructions },
          origin: 'proposer',
          parent: best.candidate.id,
          ...(proposal.rationale ? { rationale: proposal.rationale } : {}),
        };
      } else {
        candidate = {
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
      }
      const key = changesKey(candidate.changes);
      if (tried.has(key)) {
        const line = {
          type: 'skip' as const,
          move,
          at: new Date().toISOString(),
          reason: `${id} would repeat a candidate already tried`,
          ...proposerField(proposerCost),
        };
        await save(line);
        emit({ type: 'skipped', reason: line.reason });
        continue;
      }
      tried.add(key);
      const started = new Date();
      const evaluation = await evaluate(candidate, split.train, 'train', `trial ${done + 1}`);
      const decision = judgeCandidate(best.evaluation, evaluation, {
        required: options.required,
        confidence: options.confidence,
        seed: config.seed,
      });
      const line: TrialLine = {
        type: 'trial',
        trial: done + 1,
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
          improvement: {
            estimate: decision.improvement.estimate,
            lower: decision.improvement.lower,
            upper: decision.improvement.upper,
            confidence: decision.improvement.confidence,
            method: decision.improvement.method,
          },
        },
        best: decision.accepted ? candidate.id : best.candidate.id,
      };
      spent += spendOf(evaluation);
      if (evaluation.interrupted) {
        // Not judged: a stopped trial is run again on --resume.
        stopped = stoppedBy() ?? (options.maxCostUsd !== undefined ? 'max-cost' : 'interrupted');
        break;
      }
      await save(line);
      trials.push(line);
      if (decision.accepted) best = line;
      else if (candidate.changes.instructions !== undefined && step.kind === 'propose')
        rejectedInstructions.push(candidate.changes.instructions);
      emit({ type: 'trial-finished', line });
    }
    const winner = best.trial === 0 ? undefined : best;
    let holdout = options.previous.find(
      (line): line is HoldoutLine => line.type === 'holdout' && line.winner === winner?.candidate.id,
    );
    if (
      winner &&
      !holdout &&
      split.holdout.length &&
      (stopped === 'exhausted' || stopped === 'max-trials' || stopped === 'max-cost')
    ) {
      const confirmed = await confirmOnHoldout(winner, baseline, {
        evaluate: (candidate, cases, label) => evaluate(candidate, cases, 'holdout', label),
        cases: split.holdout,
        confidence: options.confidence,
        seed: config.seed,
      });
      if (confirmed) {
        spent += costOf(confirmed);
        await save(confirmed);
        holdout = confirmed;
        emit({ type: 'holdout-finished', line: confirmed });
      } else stopped = stoppedBy() ?? 'interrupted';
    }
    return {
      baseline,
      trials: trials.filter((line) => line.trial > 0),
      ...(winner ? { winner } : {}),
      ...(holdout ? { holdout } : {}),
      spentUsd: spent,
      stopped,
    };
  } finally {
    if (timer) clearTimeout(timer);
  }
}
