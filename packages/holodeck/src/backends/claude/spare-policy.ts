/**
 * When to start a spare CLI process for `holodeck test --isolation process` (WarmProcessPool).
 * Pure: the pool measures, this decides.
 *
 * A spare pays off only when it is ready before the slot it is for frees up: when the expected
 * wait for the next model answer is longer than a CLI start-up. Both are measured in the run
 * (bench/test-runner.mjs: a start-up is ~0.5-1.5 s and ~1 CPU-second on 2 cores; a spare nobody
 * needs yet only costs memory and competes for the CPU). A fast model (answers in less than a
 * start-up) therefore gets no spares at all, and a slow one gets each spare just in time.
 */

/** Resident memory of one Claude Code CLI process (measured: ~160-235 MB RSS on CLI 2.1). */
export const CLI_PROCESS_BYTES = 230 * 1024 * 1024;

/** Spares may take at most this share of the free memory, so the rest of the machine keeps its own. */
const FREE_MEMORY_SHARE = 0.5;

/**
 * A spare is started this many start-ups ahead of the answer it is for, not sooner: early enough
 * to be ready when a start-up runs slower than its median (CPU contention), late enough not to
 * sit idle holding memory.
 */
const LEAD_STARTUPS = 1.5;

/** What is known at one moment: the run's measurements and the state of its processes. */
export interface SparePolicyInput {
  /** Now, on the same clock as `waitingSince` (ms). */
  now: number;
  /** Median CLI start-up measured in this run (ms), from spawn until ready; undefined before the first. */
  startupMs: number | undefined;
  /** Median wait for a model answer measured in this run (ms), from the process being up until its result. */
  answerMs: number | undefined;
  /** When each running run began waiting for its model answer (its process up, the request sent). */
  waitingSince: readonly number[];
  /** Spares started and not taken yet (ready or still starting). */
  spares: number;
  /** Runs still to start (each will take a spare or start cold). */
  runsToCome: number;
  /** CLI processes alive now, spares and running runs alike. */
  alive: number;
  /** Most CLI processes allowed alive at once (see `processBound`). */
  maxProcesses: number;
  /** Free memory of the machine now (os.freemem()). */
  freeMemoryBytes: number;
}

/** Whether to start one more spare now; otherwise, when asking again may change the answer. */
export interface SpareDecision {
  start: boolean;
  /** Ask again after this long (ms) even if nothing happens meanwhile; undefined: only on the next event. */
  recheckInMs?: number;
  /** Why, for traces and tests. */
  reason: string;
}

/**
 * How long until a running run's answer is expected. Past the measured median (or before any
 * answer was measured), a run that has waited `e` is expected to wait about `e` more: the estimate
 * that assumes nothing about the model (a model that has taken 3 s so far is not about to answer
 * in 10 ms, nor known to take a minute).
 */
function expectedRemaining(elapsed: number, answerMs: number | undefined): number {
  return answerMs !== undefined && elapsed < answerMs ? answerMs - elapsed : elapsed;
}

/** Decides whether one more spare should start now (call again after starting one). */
export function decideSpare(input: SparePolicyInput): SpareDecision {
  if (input.runsToCome <= input.spares) return { start: false, reason: 'no run left to use another spare' };
  if (input.alive >= input.maxProcesses)
    return { start: false, reason: `${input.alive} processes alive, the most allowed` };
  if (input.freeMemoryBytes * FREE_MEMORY_SHARE < CLI_PROCESS_BYTES)
    return { start: false, reason: 'too little free memory for another process' };
  const startup = input.startupMs;
  if (startup === undefined) return { start: false, reason: 'no start-up measured yet' };
  // The soonest answers free the first slots; the spares already there go to those first.
  const remaining = input.waitingSince
    .map((since) => {
      const elapsed = Math.max(0, input.now - since);
      return { elapsed, remaining: expectedRemaining(elapsed, input.answerMs) };
    })
    .sort((a, b) => a.remaining - b.remaining);
  const next = remaining[input.spares];
  if (!next) return { start: false, reason: 'every running run already has a spare waiting' };
  if (next.remaining <= startup) {
    // The estimate grows again once the run is past the median answer (or when none is known):
    // ask again when it could exceed a start-up.
    const threshold = Math.max(startup, input.answerMs ?? 0);
    return {
      start: false,
      recheckInMs: Math.max(1, threshold - next.elapsed + 1),
      reason: `the next answer is expected in ${Math.round(next.remaining)} ms, within a start-up (${Math.round(startup)} ms)`,
    };
  }
  const lead = startup * LEAD_STARTUPS;
  if (next.remaining > lead)
    return {
      start: false,
      recheckInMs: Math.max(1, next.remaining - lead),
      reason: `the next answer is expected in ${Math.round(next.remaining)} ms: a spare started now would wait idle`,
    };
  return {
    start: true,
    reason: `the next answer is expected in ${Math.round(next.remaining)} ms, after a start-up (${Math.round(startup)} ms)`,
  };
}

/**
 * The most CLI processes alive at once: `requested` (`--max-processes`) when given, else the
 * runs at a time plus a few spares (at most half as many, rounded up), as many as half the free
 * memory holds.
 */
export function processBound(options: {
  concurrency: number;
  freeMemoryBytes: number;
  requested?: number;
}): number {
  if (options.requested !== undefined) return options.requested;
  const byMemory = Math.floor((options.freeMemoryBytes * FREE_MEMORY_SHARE) / CLI_PROCESS_BYTES);
  return options.concurrency + Math.max(0, Math.min(Math.ceil(options.concurrency / 2), byMemory));
}

/** The median of `values`, or undefined when there are none. */
export function median(values: readonly number[]): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
