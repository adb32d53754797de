import os from 'node:os';
import type { HoldWaiterIdentity, NovarchStore } from '../model/novarch-store.js';
import type { HoldRecord } from '../model/records.js';
import { waiterCheckInIntervalMs } from '../model/waiter-timing.js';
import type { ServerEvents } from './server-events.js';

/** How often a waiting request looks at the store for decisions made elsewhere (ms). */
const POLL_INTERVAL_MS = 250;

export interface WaitForHoldOptions {
  /** The longest this request waits (ms); the hold's deadline ends it sooner. */
  timeoutMs: number;
  /** Who waits, recorded with each check-in (the agent's process, as it says). */
  waiter?: HoldWaiterIdentity | undefined;
  /** The request went away, or the server shuts down: return the hold as it is. */
  signal: AbortSignal;
  events: ServerEvents;
  /** Told when this wait closed the hold at its deadline. */
  onTimedOut(hold: HoldRecord): void;
}

/**
 * One long-poll on a hold, the server side of `NovarchEngine.awaitHold` for a remote agent: it
 * returns the hold once decided, or as it is (still pending) when this request's time is up. At
 * the deadline it closes the hold as `timed_out` (fail-closed), as the local engine does. While it
 * waits it checks in on the hold every 2 s for the agent, so a hold whose agent stopped polling
 * (crashed, or cut off from the server) turns abandoned, and operators see that.
 */
export async function waitForHold(
  store: NovarchStore,
  hold: HoldRecord,
  options: WaitForHoldOptions,
): Promise<HoldRecord> {
  const until = Date.now() + options.timeoutMs;
  const deadline = Date.parse(hold.deadline);
  const waiter = options.waiter ?? { pid: process.pid, host: os.hostname() };
  let nextCheckIn = Date.now();
  for (;;) {
    const current = (await store.getHold(hold.id)) ?? hold;
    if (current.status !== 'pending') return current;
    if (Date.now() >= deadline) {
      const closed = await store.decideHold(
        hold.id,
        'timed_out',
        'novarch',
        'no operator decision before the deadline',
      );
      if (closed.status === 'timed_out' && closed.decidedBy === 'novarch') options.onTimedOut(closed);
      return closed;
    }
    if (Date.now() >= nextCheckIn) {
      try {
        await store.checkInHoldWaiter(hold.id, waiter);
        nextCheckIn = Date.now() + waiterCheckInIntervalMs();
      } catch {
        // A missed check-in only makes the hold look abandoned (decisions refused): fail-closed.
        nextCheckIn = Date.now() + POLL_INTERVAL_MS;
      }
    }
    const now = Date.now();
    // Still pending: answer with the hold as stored now, its latest check-in included.
    if (now >= until || options.signal.aborted) return (await store.getHold(hold.id)) ?? current;
    await wake(Math.min(POLL_INTERVAL_MS, until - now, deadline - now, nextCheckIn - now), hold.id, options);
  }
}

/** Sleeps `ms`, or less when this hold's decision is announced or the request is aborted. */
function wake(ms: number, holdId: string, options: WaitForHoldOptions): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      options.signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    const unsubscribe = options.events.subscribe((event) => {
      if (event.hold?.id === holdId && event.type === 'hold-decided') done();
    });
    options.signal.addEventListener('abort', done, { once: true });
  });
}
