import { performance } from 'node:perf_hooks';
import type { NovarchStore } from '../../model/novarch-store.js';
import type { ClusterStore, ServerInstance } from '../../store/cluster-store.js';
import { errorMessage } from '../../support.js';

/** Stored on a write whose server died while judging it, and so never answered it. */
export const LEASE_REFUSAL_RATIONALE =
  'the server judging this write stopped (its lease expired) before it stored a verdict: the write was refused and did not run';

/** Timings of an instance lease (ms). */
export interface LeaseTimings {
  /** How long a renewal keeps the lease (default 10000). */
  leaseMs: number;
  /** How often the lease is renewed and expired servers are looked for (default 2000). */
  renewEveryMs: number;
  /** How long past a lease's expiry a survivor waits before reaping it (default 2000). */
  graceMs: number;
  /**
   * How long the row of a server reaped (and expired) stays in `server_instances` before it is
   * deleted (default one hour: long enough to see who took over what; rows do not pile up).
   */
  pruneAfterMs: number;
}

export const DEFAULT_LEASE_TIMINGS: LeaseTimings = {
  leaseMs: 10_000,
  renewEveryMs: 2_000,
  graceMs: 2_000,
  pruneAfterMs: 3_600_000,
};

/** How often a server deletes the rows of servers reaped long ago (ms). */
const PRUNE_EVERY_MS = 60_000;

/**
 * This server's lease in `server_instances`, and the reaping of servers that died. The server
 * renews its lease every `renewEveryMs`; each action it records carries its id (`judged_by`). A
 * server whose lease expired `graceMs` ago (killed, frozen, cut off) is claimed by one survivor,
 * which stores every write it left without a verdict as refused (`LEASE_REFUSAL_RATIONALE`), once.
 *
 * Fencing: this server stops storing anything once its lease may have expired by its own clock
 * (`fenced`), before any survivor can reap it; and once its lease was taken from it (the renewal
 * finds it reaped) it stays fenced and `onLost` is told, so a judge answering late never adds a
 * second verdict to a write a survivor refused.
 */
export class InstanceLease {
  #validUntil = 0;
  #lost = false;
  #timer: NodeJS.Timeout | undefined;
  #tick: Promise<void> | undefined;
  #stopped = false;
  // The first round prunes too: a server started after a long outage does not wait a minute.
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly cluster: ClusterStore,
    private readonly instance: ServerInstance,
    private readonly store: NovarchStore,
    private readonly log: (message: string) => void,
    private readonly onLost: () => void,
    private readonly timings: LeaseTimings = DEFAULT_LEASE_TIMINGS,
    /** When the oldest write this server still judges was recorded (`JudgementsInFlight.judgingSince`). */
    private readonly judgingSince: () => number = () => Date.now(),
  ) {}

  get id(): string {
    return this.instance.id;
  }

  async start(): Promise<void> {
    const started = performance.now();
    await this.cluster.register(this.instance, this.timings.leaseMs);
    this.#validUntil = started + this.timings.leaseMs - this.timings.graceMs;
    this.#timer = setInterval(() => {
      this.#tick ??= this.#renewAndReap().finally(() => {
        this.#tick = undefined;
      });
    }, this.timings.renewEveryMs);
    this.#timer.unref();
  }

  /** Why this server may not store anything now, or undefined while its lease holds. */
  fenced(): string | undefined {
    if (this.#lost) return 'this server lost its lease (another server took over its judgements): restart it';
    if (performance.now() > this.#validUntil)
      return 'this server could not renew its lease in the store (the database is unreachable): nothing was done; try again';
    return undefined;
  }

  /** Ends the lease (a clean shutdown, after the server's own cut). */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    await this.#tick;
    await this.cluster.stop(this.instance.id).catch(() => {});
  }

  async #renewAndReap(): Promise<void> {
    if (this.#stopped || this.#lost) return;
    const started = performance.now();
    try {
      // A second of margin: actions' `created_at` and this are the same clock, read apart.
      const since = new Date(this.judgingSince() - 1_000);
      if (await this.cluster.renew(this.instance.id, this.timings.leaseMs, since)) {
        this.#validUntil = started + this.timings.leaseMs - this.timings.graceMs;
      } else {
        this.#lost = true;
        this.log(
          `novarch serve: this server's lease (${this.instance.id}) was taken over by another server: it stores nothing more and stops`,
        );
        this.onLost();
        return;
      }
    } catch {
      // Fenced once `validUntil` passes; the next renewal may succeed.
      return;
    }
    await this.reapExpired();
    if (performance.now() - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = performance.now();
      await this.pruneReaped();
    }
  }

  /** Deletes the rows of servers reaped `pruneAfterMs` ago (exposed for tests); never throws. */
  async pruneReaped(): Promise<number> {
    try {
      return await this.cluster.pruneInstances(this.timings.pruneAfterMs);
    } catch {
      // The next round tries again; nothing depends on an old row being gone.
      return 0;
    }
  }

  /** Claims the servers whose lease expired and refuses what each was judging (exposed for tests). */
  async reapExpired(): Promise<number> {
    let refused = 0;
    let claimed: ServerInstance[];
    try {
      claimed = await this.cluster.claimExpired(this.instance.id, this.timings.graceMs);
    } catch {
      return 0;
    }
    for (const dead of claimed) {
      try {
        const orphans = await this.cluster.unjudgedActions(dead.id);
        let count = 0;
        for (const orphan of orphans) {
          await this.store.recordRefusal({
            sessionId: orphan.sessionId,
            actionId: orphan.actionId,
            source: 'gate',
            citations: { ruleIds: [], evidenceIds: [], rationale: LEASE_REFUSAL_RATIONALE },
          });
          count++;
        }
        await this.cluster.finishReap(dead.id, this.instance.id, count);
        refused += count;
        if (count > 0)
          this.log(
            `novarch serve: server ${dead.id} (${dead.host}, pid ${dead.pid}) stopped renewing its lease: ${count} write(s) it was judging stored as refused ("${LEASE_REFUSAL_RATIONALE}")`,
          );
      } catch (error) {
        // Left claimed and unfinished: retried at the next tick (the refusals stored stand).
        this.log(
          `novarch serve: the judgements of server ${dead.id} could not all be refused yet: ${errorMessage(error)}`,
        );
      }
    }
    return refused;
  }
}
