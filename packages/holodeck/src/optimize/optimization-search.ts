import { InterruptedError } from '../errors.js';
import type { Candidate } from './candidate.js';
import { confirmOnHoldout } from './confirm-on-holdout.js';
import { evaluateCandidate } from './evaluate-candidate.js';
import { type Evaluation, spendOf } from './evaluation.js';
import type { OptimizeEvent, OptimizeOptions } from './optimize-options.js';
import {
  appendTrialsLine,
  type FinishLine,
  type HoldoutLine,
  type TrialLine,
  type TrialsLine,
} from './trials-file.js';

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
export function proposerField(cost: number): { proposer_cost_usd?: number } {
  return cost > 0 ? { proposer_cost_usd: cost } : {};
}

/**
 * One run of runOptimization: the trials so far (saved ones first, on --resume), the best of them,
 * what was spent, and the stop (Ctrl+C, --max-time) that ends a running evaluation. runTrials
 * (run-trials.ts) walks the moves with it.
 */
export class OptimizationSearch {
  readonly trials: TrialLine[];
  best!: TrialLine;
  spent: number;
  readonly options: OptimizeOptions;
  readonly emit: (event: OptimizeEvent) => void;
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  /** The last move saved (-1 when none): the search goes on at the next. */
  readonly lastMove: number;

  constructor(options: OptimizeOptions) {
    this.options = options;
    this.emit = options.onEvent ?? (() => {});
    this.trials = options.previous.filter((line): line is TrialLine => line.type === 'trial');
    this.lastMove = Math.max(
      -1,
      ...options.previous.flatMap((line) =>
        line.type === 'trial' || line.type === 'skip' ? [line.move] : [],
      ),
    );
    this.spent = options.previous.reduce((sum, line) => sum + costOf(line), 0);
    const stop = (reason: unknown) => this.#controller.abort(reason);
    options.signal?.addEventListener('abort', () => stop(options.signal?.reason), { once: true });
    this.#timer =
      options.deadline !== undefined
        ? setTimeout(() => stop(new InterruptedError('max-time')), Math.max(0, options.deadline - Date.now()))
        : undefined;
  }

  /** Aborted by Ctrl+C (the caller's signal) or the deadline. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
  }

  /** Why the search must stop now, if it must. */
  stoppedBy(): FinishLine['stopped'] | undefined {
    const { signal } = this.#controller;
    if (signal.aborted)
      return signal.reason instanceof InterruptedError && signal.reason.message === 'max-time'
        ? 'max-time'
        : 'interrupted';
    const { deadline, maxCostUsd } = this.options;
    if (deadline !== undefined && Date.now() >= deadline) return 'max-time';
    if (maxCostUsd !== undefined && this.spent >= maxCostUsd) return 'max-cost';
    return undefined;
  }

  /** Runs a candidate on some cases (reported as it goes), within what is left of the budget. */
  evaluate(
    candidate: Candidate,
    cases: readonly string[],
    which: 'train' | 'holdout',
    label: string,
  ): Promise<Evaluation> {
    const options = this.options;
    this.emit({
      type: 'evaluation-started',
      label,
      candidate,
      split: which,
      cases: cases.length,
      attempts: cases.length * options.config.repeats,
    });
    return evaluateCandidate(options.agent, candidate, cases, which, {
      ...options.evaluation,
      signal: this.#controller.signal,
      ...(options.maxCostUsd !== undefined
        ? { maxCostUsd: Math.max(0, options.maxCostUsd - this.spent) }
        : {}),
      onCaseFinished: (report) => this.emit({ type: 'case-finished', report }),
    });
  }

  /** Appends a line to trials.jsonl. */
  async save(line: TrialsLine): Promise<void> {
    await appendTrialsLine(this.options.trialsFile, line);
  }

  /** Saves and reports a move that was not run. */
  async skip(move: number, reason: string, proposerCost: number): Promise<void> {
    const line = {
      type: 'skip' as const,
      move,
      at: new Date().toISOString(),
      reason,
      ...proposerField(proposerCost),
    };
    await this.save(line);
    this.emit({ type: 'skipped', reason: line.reason });
  }

  /** Trial 0, the agent as written: the saved one on --resume, else run (and saved unless stopped). */
  async runBaseline(): Promise<{ line: TrialLine; interrupted: boolean }> {
    const saved = this.trials.find((line) => line.trial === 0);
    if (saved) {
      this.best = saved;
      return { line: saved, interrupted: false };
    }
    const candidate: Candidate = { id: 't0', changes: {}, origin: 'baseline' };
    const started = new Date();
    const evaluation = await this.evaluate(
      candidate,
      this.options.split.train,
      'train',
      'trial 0 (agent.yaml as written)',
    );
    const baseline: TrialLine = {
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
    this.spent += costOf(baseline);
    this.best = baseline;
    if (evaluation.interrupted) return { line: baseline, interrupted: true };
    if (evaluation.unrecorded > 0)
      this.emit({
        type: 'note',
        message: `${evaluation.unrecorded} request(s) of agent.yaml as written had no recording (their cases errored): record the suite with holodeck test --record`,
      });
    await this.save(baseline);
    this.trials.push(baseline);
    this.emit({ type: 'trial-finished', line: baseline });
    return { line: baseline, interrupted: false };
  }

  /** The holdout line saved for this winner on an earlier run (--resume). */
  savedHoldout(winner: TrialLine | undefined): HoldoutLine | undefined {
    return this.options.previous.find(
      (line): line is HoldoutLine => line.type === 'holdout' && line.winner === winner?.candidate.id,
    );
  }

  /** The winner and the agent as written once each on the holdout cases; undefined when stopped. */
  async confirmWinner(winner: TrialLine, baseline: TrialLine): Promise<HoldoutLine | undefined> {
    const options = this.options;
    const confirmed = await confirmOnHoldout(winner, baseline, {
      evaluate: (candidate, cases, label) => this.evaluate(candidate, cases, 'holdout', label),
      cases: options.split.holdout,
      confidence: options.confidence,
      seed: options.config.seed,
    });
    if (!confirmed) return undefined;
    this.spent += costOf(confirmed);
    await this.save(confirmed);
    this.emit({ type: 'holdout-finished', line: confirmed });
    return confirmed;
  }
}
