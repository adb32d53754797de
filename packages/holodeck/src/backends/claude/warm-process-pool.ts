import { freemem } from 'node:os';
import { startup, type WarmQuery } from '@anthropic-ai/claude-agent-sdk';
import type { RunTraffic } from '../../tools/run-traffic.js';
import { ConcurrencyLimit } from './concurrency-limit.js';
import { LimitToolGate } from './limit-tool-gate.js';
import { type PreparedAgent, queryOptions } from './prepared-agent.js';
import type { ProcessSlots, ReleaseSlot } from './process-slots.js';
import { decideSpare, median } from './spare-policy.js';
import { ClaudeProcessHandle } from './spawn-claude-process.js';

/** A CLI process started ahead of time (the SDK's `startup()`), waiting for its prompt. */
export interface WarmProcess {
  handle: ClaudeProcessHandle;
  warm: WarmQuery;
  /** Frees the process's slot: call once the process has exited. */
  release: ReleaseSlot;
  /** Recorded runs: binds the process's recording route to the run that takes it (call at once). */
  claimRoute?: (run: RunTraffic | undefined) => void;
  /** Holds the tool calls of the run that takes it while its limits are checked. */
  toolGate: LimitToolGate;
}

/** The most recent measurements kept for the medians. */
const KEEP_MEASUREMENTS = 16;

interface Spare {
  handle: ClaudeProcessHandle;
  started: Promise<WarmProcess | undefined>;
}

/** What a pool needs besides the agent. */
export interface WarmProcessPoolOptions {
  /** Single-turn runs to come: the pool never starts a spare that no run would take. */
  runs: number;
  /** The backend's process slots (`--max-processes`); a spare holds one from spawn to exit. */
  slots: ProcessSlots;
  /** Limits how many CLIs start at once (see ClaudeBackend). */
  startups?: ConcurrencyLimit;
  /** Free memory now (default os.freemem). */
  freeMemory?: () => number;
  now?: () => number;
}

/**
 * Spares for one-shot runs: CLI processes started ahead of time so a run skips the start-up. It
 * starts one only while that pays off (spare-policy.ts): from what this run measured, the next
 * model answer is expected later than a start-up takes. Runs report when their process is up and
 * waiting on the model (`waiting()`) and when the answer came; cold runs report their start-up.
 * Nothing is measured before the first runs, so they start cold. A spare that failed to start is
 * dropped; the caller then runs cold.
 */
export class WarmProcessPool {
  private readonly spares: Spare[] = [];
  private readonly startups: number[] = [];
  private readonly answers: number[] = [];
  private readonly waitingRuns = new Set<{ since: number }>();
  private runsToCome: number;
  private recheck: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly startLimit: ConcurrencyLimit;
  private readonly freeMemory: () => number;
  private readonly now: () => number;

  constructor(
    private readonly prepared: PreparedAgent,
    private readonly options: WarmProcessPoolOptions,
  ) {
    this.runsToCome = options.runs;
    this.startLimit = options.startups ?? new ConcurrencyLimit(Number.MAX_SAFE_INTEGER);
    this.freeMemory = options.freeMemory ?? freemem;
    this.now = options.now ?? Date.now;
  }

  /** A warm process for a run that is starting, or undefined (the run then starts cold). */
  async take(): Promise<WarmProcess | undefined> {
    this.runsToCome = Math.max(0, this.runsToCome - 1);
    const spare = this.spares.shift();
    return spare ? await spare.started : undefined;
  }

  /** A run that started cold took `ms` from spawn until its process was up. */
  measuredStartup(ms: number): void {
    this.record(this.startups, ms);
    this.consider();
  }

  /**
   * A run's process is up and its request on the way. Call the returned function when the run
   * ends: `answered` when its result came (the wait is measured), false when it failed or stopped.
   */
  waiting(): (answered: boolean) => void {
    const run = { since: this.now() };
    this.waitingRuns.add(run);
    this.consider();
    return (answered) => {
      if (!this.waitingRuns.delete(run)) return;
      if (answered) this.record(this.answers, this.now() - run.since);
      this.consider();
    };
  }

  /** Stops an idle spare to free its slot for a run that cannot use it (see ProcessSlots). */
  evictOne(): void {
    const spare = this.spares.pop();
    if (spare) void spare.started.then((warm) => this.discard(warm));
  }

  /** Stops every unused spare now; one still starting is stopped as soon as it exists. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.recheck);
    const spares = this.spares.splice(0);
    await Promise.all(
      spares.map(async (spare) => {
        await spare.handle.stop();
        await this.discard(await spare.started);
      }),
    );
  }

  /** Starts spares for as long as the policy says they pay off. */
  private consider(): void {
    clearTimeout(this.recheck);
    this.recheck = undefined;
    while (!this.closed) {
      const decision = decideSpare({
        now: this.now(),
        startupMs: median(this.startups),
        answerMs: median(this.answers),
        waitingSince: [...this.waitingRuns].map((run) => run.since),
        spares: this.spares.length,
        runsToCome: this.runsToCome,
        alive: this.options.slots.alive,
        maxProcesses: this.options.slots.limit,
        freeMemoryBytes: this.freeMemory(),
      });
      if (!decision.start) {
        if (decision.recheckInMs !== undefined) {
          this.recheck = setTimeout(() => this.consider(), decision.recheckInMs);
          this.recheck.unref();
        }
        return;
      }
      const release = this.options.slots.tryAcquire();
      if (!release) return;
      const handle = new ClaudeProcessHandle();
      this.spares.push({ handle, started: this.start(handle, release) });
    }
  }

  private start(handle: ClaudeProcessHandle, release: ReleaseSlot): Promise<WarmProcess | undefined> {
    return this.startLimit.run(async () => {
      if (this.closed) {
        release();
        return undefined;
      }
      const startedAt = this.now();
      try {
        let claimRoute: ((run: RunTraffic | undefined) => void) | undefined;
        const toolGate = new LimitToolGate();
        const warm = await startup({
          options: queryOptions(this.prepared, {
            handle,
            // The run that takes the spare may be told of its progress, whose output counts
            // only `message_delta` carries (run-once.ts); a run that is not ignores them.
            partialMessages: true,
            toolGate,
            deferRouteClaim: (claim) => {
              claimRoute = claim;
            },
          }),
        });
        this.record(this.startups, this.now() - startedAt);
        if (this.closed) {
          await this.discard({ handle, warm, release, toolGate });
          return undefined;
        }
        return { handle, warm, release, toolGate, ...(claimRoute ? { claimRoute } : {}) };
      } catch {
        await handle.stop();
        release();
        const index = this.spares.findIndex((spare) => spare.handle === handle);
        if (index >= 0) this.spares.splice(index, 1);
        return undefined;
      }
    });
  }

  private async discard(spare: WarmProcess | undefined): Promise<void> {
    if (!spare) return;
    spare.warm.close();
    await spare.handle.stop();
    spare.release();
  }

  private record(list: number[], value: number): void {
    list.push(value);
    if (list.length > KEEP_MEASUREMENTS) list.shift();
  }
}
