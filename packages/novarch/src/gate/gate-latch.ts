import type { Citations, SessionRecord } from '../model/records.js';

/** Why the gate's session stopped: what `raiseIfKilled` throws with. */
export interface GateLatch {
  citations: Citations;
  actionId?: string;
}

/**
 * The latch of a session found killed in the store: by an operator (`novarch sessions kill`), or
 * by a judge kill, a skipped or timed-out hold stored by another gate or process. The stored kill
 * keeps its source and citations, so it is not told as an operator's when it was the judge's.
 */
export function latchOfStoredKill(killed: SessionRecord): GateLatch {
  const reason = killed.killReason ?? 'no reason given';
  const kill = killed.kill;
  if (kill === undefined) {
    // Stored before Novarch recorded who killed: the reason alone, never a guessed source.
    return { citations: { ruleIds: [], evidenceIds: [], rationale: `killed: ${reason}` } };
  }
  const rationale = kill.source === 'operator' ? `killed by an operator: ${reason}` : reason;
  return {
    citations: { ruleIds: [...kill.ruleIds], evidenceIds: [...kill.evidenceIds], rationale },
    ...(kill.actionId === undefined ? {} : { actionId: kill.actionId }),
  };
}

/** What the agent is told when a stored kill stops its call. */
export function storedKillReason(killed: SessionRecord, during: string): string {
  const who =
    killed.kill?.source === 'operator' ? 'an operator killed this session' : 'this session was stopped';
  return during === '' ? who : `${who} ${during}`;
}
