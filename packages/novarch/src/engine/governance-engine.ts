import type { NovarchStore, ReleaseResult } from '../model/novarch-store.js';
import type { HoldRecord, SessionRecord, SessionScope } from '../model/records.js';
import type { ADOPT_DEPLOYMENT_WINDOW, DecideOptions, Decision, ProposedAction } from './novarch-engine.js';

/**
 * The part of the store a governed session writes through its engine besides the engine's own
 * decisions: the evidence of reads, refused calls, the latch of a session, and its audit (HoloDeck
 * reads a session's verdicts from it). A local engine hands out its whole store; a remote one
 * sends each call to the server.
 */
export type EngineStore = Pick<NovarchStore, 'recordEvidence' | 'recordRefusal' | 'killSession' | 'audit'>;

/**
 * What the hook gate, the tool governor and `augur.session` need of an engine: `NovarchEngine`
 * over a local store, or `remoteEngine({ url, apiKey })` over a Novarch server. Both have the
 * same semantics (verdict table, latch, holds, kill); a remote engine that cannot reach its server
 * rejects, and every caller refuses the call then (fail-closed).
 */
export interface GovernanceEngine {
  readonly store: EngineStore;
  /** Negotiates the hold wait against the deployment's window and opens the session. */
  openSession(
    scope: SessionScope,
    maxHoldS?: number | typeof ADOPT_DEPLOYMENT_WINDOW,
  ): Promise<SessionRecord>;
  /** Judges a write (see `NovarchEngine.decide`). */
  decide(session: SessionRecord, proposed: ProposedAction, options?: DecideOptions): Promise<Decision>;
  /** Lets an approved write run, atomically with a check that the session was not killed. */
  release(decision: Pick<Decision, 'action'>): Promise<ReleaseResult>;
  /** Waits for an operator's decision on a hold, until its deadline (then `timed_out`). */
  awaitHold(hold: HoldRecord, signal?: AbortSignal): Promise<HoldRecord>;
  /** The session when it was latched, here or by an operator elsewhere; otherwise undefined. */
  isKilled(sessionId: string): Promise<SessionRecord | undefined>;
}
