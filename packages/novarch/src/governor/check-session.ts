import type { ActiveSession } from '../augur/augur-session.js';
import { failedClosed, operatorKillStop, type SessionStop } from './governed-call.js';

/** Whether a call may go on: the session is open, was killed, or its state cannot be read. */
export type SessionCheck =
  | { type: 'open' }
  | { type: 'refuse'; reason: string }
  | { type: 'stop'; reason: string; stop: SessionStop };

/**
 * Checks the store before a call runs: a session an operator killed (here or in another process)
 * stops the call, and a store that cannot be read refuses it (fail-closed). Never rejects.
 */
export async function checkSession(session: ActiveSession): Promise<SessionCheck> {
  try {
    const killed = await session.engine.isKilled(session.record.id);
    if (!killed) return { type: 'open' };
    return { type: 'stop', reason: 'an operator killed this session', stop: operatorKillStop(killed) };
  } catch (error) {
    return { type: 'refuse', reason: failedClosed(error) };
  }
}
