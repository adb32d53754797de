import { latchOfStoredKill, storedKillReason } from '../gate/gate-latch.js';
import type { ActiveSession } from '../session/active-session.js';
import { failedClosed, type SessionStop } from './governed-call.js';

/** Whether a call may go on: the session is open, was killed, or its state cannot be read. */
export type SessionCheck =
  | { type: 'open' }
  | { type: 'refuse'; reason: string }
  | { type: 'stop'; reason: string; stop: SessionStop };

/**
 * Checks the store before a call runs: a session killed in the store (by an operator, or by a
 * judge kill, a skipped or timed-out hold of another process) stops the call, told by its stored
 * source and citations; a store that cannot be read refuses it (fail-closed). Never rejects.
 *
 * This is no guard of a write's release: that is `engine.decide(..., { release: true })` and
 * `engine.release()`, which check the kill in the same durable transaction that lets the write run.
 */
export async function checkSession(session: ActiveSession): Promise<SessionCheck> {
  try {
    const killed = await session.engine.isKilled(session.record.id);
    if (!killed) return { type: 'open' };
    return { type: 'stop', reason: storedKillReason(killed, ''), stop: latchOfStoredKill(killed) };
  } catch (error) {
    return { type: 'refuse', reason: failedClosed(error) };
  }
}
