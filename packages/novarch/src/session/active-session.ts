import { AsyncLocalStorage } from 'node:async_hooks';
import type { GovernanceEngine } from '../engine/governance-engine.js';
import type { SessionRecord } from '../model/records.js';

/** The governed session a tool call belongs to, reachable from any tool handler. */
export interface ActiveSession {
  /** A local `NovarchEngine`, or a `remoteEngine` on a Novarch server. */
  engine: GovernanceEngine;
  record: SessionRecord;
}

// One store for the process: `augur.session` enters it; the gate, the governor and augur's tools
// read it, so none of the three imports another to find its session.
const active = new AsyncLocalStorage<ActiveSession>();

/** Runs `fn` with `session` as the current session of its async context. */
export function runInSession<T>(session: ActiveSession, fn: () => T): T {
  return active.run(session, fn);
}

/** The session of the current async context (inside `augur.session`), if any. */
export function currentSession(): ActiveSession | undefined {
  return active.getStore();
}
