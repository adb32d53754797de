import { buildCaseReport } from './build-case-report.js';
import type { PreparedCase } from './prepare-suite.js';
import { autoStop, initialAttempts, maximumAttempts, type RepeatPlan } from './repeat-plan.js';
import { countAttempts } from './report/case-state.js';
import type { CaseAttempt, CaseReport, RepeatStop } from './report/run-report.js';

/** What scheduleAttempts needs from the run. */
export interface ScheduleOptions {
  cases: readonly PreparedCase[];
  planOf: (testCase: PreparedCase) => RepeatPlan;
  /** Runs one attempt (1-based number) of a case. */
  runOne: (testCase: PreparedCase, attempt: number) => Promise<CaseAttempt>;
  concurrency: number;
  confidence: number;
  signal: AbortSignal;
  /** Stop starting attempts once the known spend (agent and judge) reaches this many USD (`--max-cost`). */
  maxCostUsd?: number;
  onCaseStarted?: (name: string) => void;
  /** A case ran its last attempt (decided, or all its fixed repeats), even when the run is stopping. */
  onCaseSettled?: (name: string) => Promise<void>;
  /** A case finished (decided): its report, and the reports of every case finished so far. */
  onCaseFinished?: (report: CaseReport, finished: CaseReport[]) => void;
}

/** The case reports in suite order, and whether `--max-cost` stopped the run. */
export interface ScheduleResult {
  reports: CaseReport[];
  /** Spend of every attempt with a known cost (the agent's and the judge's), USD. */
  spentUsd: number;
  budgetReached: boolean;
}

interface CaseProgress {
  testCase: PreparedCase;
  plan: RepeatPlan;
  attempts: CaseAttempt[];
  /** Attempts started or to start for certain. */
  planned: number;
  started: number;
  running: Promise<void>[];
  /** The chain that keeps this case's adaptive attempts one at a time. */
  chain: Promise<void>;
  done: boolean;
  stop?: RepeatStop;
}

/** Runs `tasks` with at most `limit` at a time, in order of start. */
async function pool(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++];
      if (task) await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

/** The run's cases as they progress, and the spend the budget counts. */
class AttemptSchedule {
  readonly progress: CaseProgress[];
  spentUsd = 0;
  budgetReached = false;
  #unknownCost = false;

  constructor(private readonly options: ScheduleOptions) {
    this.progress = options.cases.map((testCase): CaseProgress => {
      const plan = options.planOf(testCase);
      return {
        testCase,
        plan,
        attempts: [],
        planned: initialAttempts(plan),
        started: 0,
        running: [],
        chain: Promise.resolve(),
        done: false,
      };
    });
  }

  overBudget(): boolean {
    const max = this.options.maxCostUsd;
    if (max === undefined) return false;
    if (this.spentUsd >= max || this.#unknownCost) this.budgetReached = true;
    return this.budgetReached;
  }

  reportOf(entry: CaseProgress): CaseReport {
    const attempts = [...entry.attempts].sort((a, b) => a.attempt - b.attempt);
    // An auto case not decided when the run stopped counts as stopped: one more attempt was due.
    const planned =
      entry.plan.kind === 'fixed' || entry.done
        ? entry.planned
        : Math.max(entry.planned, attempts.length + 1);
    const report = buildCaseReport(entry.testCase, attempts, planned, this.options.confidence);
    if (entry.plan.kind !== 'auto') return report;
    const stop: RepeatStop = entry.stop ?? {
      rule: 'stopped',
      attempts: attempts.length,
      min: entry.plan.min,
      max: entry.plan.max,
      reason: `stopped after ${attempts.length}: the run stopped before this case was decided`,
    };
    return { ...report, repeat_stop: stop };
  }

  #finishedReports(): CaseReport[] {
    return this.progress.filter((entry) => entry.done).map((entry) => this.reportOf(entry));
  }

  /** After an attempt: a case that ran its planned attempts is done when fixed, or when auto decides it. */
  async #settle(entry: CaseProgress): Promise<void> {
    const options = this.options;
    if (entry.attempts.length < entry.planned) return;
    if (options.signal.aborted) {
      if (entry.plan.kind === 'fixed') await options.onCaseSettled?.(entry.testCase.config.name);
      return;
    }
    if (entry.plan.kind === 'fixed') entry.done = true;
    else {
      const counts = countAttempts(entry.attempts);
      const stop = autoStop(
        entry.plan,
        { ...counts, run: entry.attempts.length },
        entry.testCase.config.min_pass_rate ?? 1,
        options.confidence,
      );
      if (stop) {
        entry.stop = stop;
        entry.done = true;
      }
    }
    if (!entry.done) return;
    await options.onCaseSettled?.(entry.testCase.config.name);
    options.onCaseFinished?.(this.reportOf(entry), this.#finishedReports());
  }

  async #start(entry: CaseProgress, number: number): Promise<void> {
    if (entry.started === 0) this.options.onCaseStarted?.(entry.testCase.config.name);
    entry.started += 1;
    const work = this.options.runOne(entry.testCase, number).then((attempt) => {
      entry.attempts.push(attempt);
      // The budget is the run's whole spend: the agent's calls and the judge's.
      const judged = attempt.judge_cost_usd ?? 0;
      if (attempt.cost_usd === null || judged === null) this.#unknownCost = true;
      else this.spentUsd += attempt.cost_usd + judged;
    });
    entry.running.push(work);
    await work;
    await this.#settle(entry);
  }

  /** Each case's initial attempts, in suite order. */
  initialTasks(): (() => Promise<void>)[] {
    return this.progress.flatMap((entry) =>
      Array.from({ length: entry.planned }, (_, index) => async () => {
        if (this.options.signal.aborted || this.overBudget()) return;
        await this.#start(entry, index + 1);
      }),
    );
  }

  /** The adaptive attempts, round-robin across the auto cases, each after the case's earlier ones. */
  adaptiveTasks(): (() => Promise<void>)[] {
    const adaptive: (() => Promise<void>)[] = [];
    const most = Math.max(0, ...this.progress.map((entry) => maximumAttempts(entry.plan)));
    for (let number = 1; number <= most; number += 1) {
      for (const entry of this.progress) {
        if (entry.plan.kind !== 'auto' || number <= entry.plan.min || number > entry.plan.max) continue;
        adaptive.push(() => this.#adaptive(entry, number));
      }
    }
    return adaptive;
  }

  async #adaptive(entry: CaseProgress, number: number): Promise<void> {
    const previous = entry.chain;
    let release = () => {};
    entry.chain = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      await previous;
      await Promise.all(entry.running);
      if (entry.done || this.options.signal.aborted || this.overBudget()) return;
      if (entry.attempts.length < entry.planned) return;
      entry.planned += 1;
      await this.#start(entry, number);
    } finally {
      release();
    }
  }
}

/**
 * Runs every case's attempts, at most `concurrency` at a time: first each case's initial
 * attempts (a fixed `repeat`, or the `min` of `repeat: auto`) in suite order, then the adaptive
 * ones round-robin across the auto cases, each started only once the case's earlier attempts
 * finished and only while its pass-rate interval still straddles its min_pass_rate. With
 * `maxCostUsd`, no attempt starts once the known spend reaches it (or an attempt's cost is
 * unknown); the cases left short are stopped.
 */
export async function scheduleAttempts(options: ScheduleOptions): Promise<ScheduleResult> {
  const schedule = new AttemptSchedule(options);
  await pool([...schedule.initialTasks(), ...schedule.adaptiveTasks()], options.concurrency);
  return {
    reports: schedule.progress.map((entry) => schedule.reportOf(entry)),
    spentUsd: schedule.spentUsd,
    budgetReached: schedule.budgetReached,
  };
}
