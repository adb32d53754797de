import { OperationRefusedError, OperatorUsageError } from '../errors.js';
import type { NovarchStore } from '../model/novarch-store.js';
import type { SessionRecord } from '../model/records.js';
import { unknownIdMessage } from './closest-ids.js';

/** What an operator asks of `novarch sessions kill`. */
export interface OperatorKill {
  sessionId: string;
  reason: string;
  operator: string;
}

/** The session with this id; an unknown id is a usage error that lists the closest ids. */
export async function requireSession(
  store: NovarchStore,
  id: string,
  storePath: string,
): Promise<SessionRecord> {
  const session = await store.getSession(id);
  if (session !== undefined) return session;
  const known = (await store.listSessions()).map((candidate) => candidate.id);
  throw new OperatorUsageError(unknownIdMessage('session', id, known, storePath));
}

/**
 * Latches a session: the gate refuses its next tool call, reads included. The stored reason names
 * the operator (`operator ana: <reason>`). A session already killed is refused with its reason.
 */
export async function killSessionAsOperator(
  store: NovarchStore,
  kill: OperatorKill,
  storePath: string,
): Promise<SessionRecord> {
  const reason = kill.reason.trim();
  if (reason === '') throw new OperatorUsageError('novarch sessions kill needs a non-empty --reason TEXT.');
  const operator = kill.operator.trim();
  if (operator === '') throw new OperatorUsageError('No operator name: pass --operator NAME (or set USER).');
  const before = await requireSession(store, kill.sessionId, storePath);
  if (before.killedAt !== undefined) {
    throw new OperationRefusedError(
      `Session ${before.id} was already killed at ${before.killedAt}: ${before.killReason ?? 'no reason stored'}. ` +
        'Nothing was changed.',
    );
  }
  const stored = `operator ${operator}: ${reason}`;
  await store.killSession(before.id, stored);
  const after = await requireSession(store, before.id, storePath);
  if (after.killReason !== stored) {
    throw new OperationRefusedError(
      `Session ${after.id} was killed by someone else first at ${after.killedAt ?? '?'}: ${after.killReason ?? ''}.`,
    );
  }
  return after;
}
