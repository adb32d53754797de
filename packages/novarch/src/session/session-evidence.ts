import type { ActiveSession } from './active-session.js';

/** Why a session's evidence is incomplete, per in-process session (the gate keeps its own too). */
const lost = new WeakMap<ActiveSession, string>();

/**
 * Marks the session's evidence incomplete: a read ran (the agent saw its result) but its evidence
 * could not be stored, so no later write of the session may be judged as if it had not happened.
 * The first reason is kept.
 */
export function markEvidenceLost(session: ActiveSession, reason: string): void {
  if (!lost.has(session)) lost.set(session, reason);
}

/** Why the session's evidence is incomplete, if it is. */
export function evidenceLostOf(session: ActiveSession): string | undefined {
  return lost.get(session);
}

/** The refusal of a write on a session whose evidence is incomplete. */
export function evidenceIncompleteReason(lostReason: string): string {
  return `evidence incomplete: ${lostReason}; no write of this session is judged on partial evidence`;
}
