import { startup, type WarmQuery } from '@anthropic-ai/claude-agent-sdk';
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
  private closed = false;

  constructor(
    private readonly prepared: PreparedAgent,
    private readonly size: number,
  ) {
    for (let index = 0; index < size; index++) this.spares.push(this.start());
  }

  /** A warm process, or undefined when none is left (the caller then starts one cold). */
  async take(): Promise<WarmProcess | undefined> {
    return this.spares.shift();
  }

  /** Starts one spare if the pool is below its size. */
  replenish(): void {
    if (!this.closed && this.spares.length < this.size) this.spares.push(this.start());
  }

  async close(): Promise<void> {
    this.closed = true;
    const spares = this.spares.splice(0);
    await Promise.all(
      spares.map(async (pending) => {
        const spare = await pending;
        spare?.warm.close();
        await spare?.handle.stop();
      }),
    );
  }

  private async start(): Promise<WarmProcess | undefined> {
    const handle = new ClaudeProcessHandle();
    try {
      const warm = await startup({
        options: queryOptions(this.prepared, { handle, partialMessages: false }),
      });
      return { handle, warm };
    } catch {
      await handle.stop();
      return undefined;
    }
  }
}
