import { startup, type WarmQuery } from '@anthropic-ai/claude-agent-sdk';
import { ConcurrencyLimit } from './concurrency-limit.js';
import { type PreparedAgent, queryOptions } from './prepared-agent.js';
import { ClaudeProcessHandle } from './spawn-claude-process.js';

/** A CLI process started ahead of time (the SDK's `startup()`), waiting for its prompt. */
export interface WarmProcess {
  handle: ClaudeProcessHandle;
  warm: WarmQuery;
}

/**
 * Keeps up to `size` CLI processes started and initialised so a one-shot run skips the ~1 s
 * start-up. A run calls `replenish()` once its own process is up and waiting on the model, so
 * replacements warm up while model calls are in flight instead of competing with other
 * start-ups for the CPU (starting them at `take()` time doubled the wall time on 2 cores).
 * A spare that failed to start is dropped; the caller then runs cold.
 */
export class WarmProcessPool {
  private readonly spares: Promise<WarmProcess | undefined>[] = [];
  /** Handles of spares nobody took yet, so close() can stop them without awaiting their start-up. */
  private readonly unclaimed = new Set<ClaudeProcessHandle>();
  private started = 0;
  private closed = false;

  /**
   * @param size spares kept ready at once
   * @param budget most processes the pool may ever start (e.g. the number of runs to come), so a
   *   suite never pays for start-ups that no run uses
   * @param startups limits how many CLIs start at once (see ClaudeBackend)
   */
  constructor(
    private readonly prepared: PreparedAgent,
    private readonly size: number,
    private readonly budget = Number.POSITIVE_INFINITY,
    private readonly startups = new ConcurrencyLimit(Number.MAX_SAFE_INTEGER),
  ) {
    for (let index = 0; index < size; index++) this.replenish();
  }

  /** A warm process, or undefined when none is left (the caller then starts one cold). */
  async take(): Promise<WarmProcess | undefined> {
    const spare = await this.spares.shift();
    if (spare) this.unclaimed.delete(spare.handle);
    return spare;
  }

  /** Starts one spare if the pool is below its size and its budget allows. */
  replenish(): void {
    if (this.closed || this.spares.length >= this.size || this.started >= this.budget) return;
    this.started++;
    this.spares.push(this.start());
  }

  /** Stops every unused spare now; one still starting is stopped as soon as it exists. */
  async close(): Promise<void> {
    this.closed = true;
    this.spares.splice(0);
    await Promise.all([...this.unclaimed].map((handle) => handle.stop()));
  }

  private start(): Promise<WarmProcess | undefined> {
    return this.startups.run(async () => (this.closed ? undefined : await this.startOne()));
  }

  private async startOne(): Promise<WarmProcess | undefined> {
    const handle = new ClaudeProcessHandle();
    this.unclaimed.add(handle);
    try {
      const warm = await startup({
        options: queryOptions(this.prepared, { handle, partialMessages: false }),
      });
      if (this.closed) {
        warm.close();
        await handle.stop();
        return undefined;
      }
      return { handle, warm };
    } catch {
      this.unclaimed.delete(handle);
      await handle.stop();
      return undefined;
    }
  }
}
