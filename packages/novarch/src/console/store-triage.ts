import { pendingHoldState } from '../model/hold-state.js';
import type { AuditEntry, NovarchStore } from '../model/novarch-store.js';
import type { EvidenceRecord, HoldRecord, SessionRecord } from '../model/records.js';
import { buildTimeline } from './build-timeline.js';
import type { ConsoleOperator, TriageHold } from './console-deps.js';
import { operatorCovers, withinOperator } from './operator-scope.js';

/** What the console reads of one session to show its holds: its audit entries and evidence. */
export interface SessionRecords {
  session: SessionRecord;
  entries: AuditEntry[];
  evidence: EvidenceRecord[];
}

export async function readSessionRecords(
  store: NovarchStore,
  session: SessionRecord,
): Promise<SessionRecords> {
  const [entries, evidence] = await Promise.all([
    store.audit({ sessionId: session.id }),
    store.listEvidence(session.id),
  ]);
  return { session, entries, evidence };
}

/** A hold with its action, the verdict that held it, the evidence it cites and the session's latest calls. */
export function triageHold(
  hold: HoldRecord,
  records: SessionRecords,
  now: Date,
  recentCalls: number,
): TriageHold {
  const entry = records.entries.find((candidate) => candidate.action.id === hold.actionId);
  // The verdict that held it: the latest `hold` verdict (later ones may be gate notes).
  const verdict = entry?.verdicts.filter((record) => record.verdict.kind === 'hold').at(-1) ?? entry?.verdict;
  const byId = new Map(records.evidence.map((record) => [record.id, record]));
  const citedEvidence = (verdict?.verdict.citations.evidenceIds ?? []).flatMap((id) => {
    const record = byId.get(id);
    return record === undefined ? [] : [record];
  });
  const state = pendingHoldState(hold, now);
  return {
    hold,
    ...(state === undefined ? {} : { state }),
    session: records.session,
    ...(entry === undefined ? {} : { action: entry.action }),
    ...(verdict === undefined ? {} : { verdict }),
    citedEvidence,
    recentCalls: buildTimeline(records.session, records.evidence, records.entries)
      .filter((event) => event.type !== 'kill')
      .slice(-recentCalls),
  };
}

/** The session, when the operator may see it. */
export async function visibleStoreSession(
  store: NovarchStore,
  operator: ConsoleOperator,
  sessionId: string,
): Promise<SessionRecord | undefined> {
  const session = await store.getSession(sessionId);
  return session !== undefined && operatorCovers(operator, session) ? session : undefined;
}

/** The hold and its session, when the operator may see the session. */
export async function visibleStoreHold(
  store: NovarchStore,
  operator: ConsoleOperator,
  holdId: string,
): Promise<{ hold: HoldRecord; session: SessionRecord } | undefined> {
  const hold = await store.getHold(holdId);
  if (hold === undefined) return undefined;
  const session = await visibleStoreSession(store, operator, hold.sessionId);
  return session === undefined ? undefined : { hold, session };
}

/**
 * The pending holds the operator may see that an agent still waits on, each with its context,
 * and how many others (abandoned or expired) are left unattended.
 */
export async function listStoreTriage(
  store: NovarchStore,
  operator: ConsoleOperator,
  { now, recentCalls }: { now: () => Date; recentCalls: number },
): Promise<{ holds: TriageHold[]; unattended: number }> {
  const at = now();
  const pending = await store.listHolds(withinOperator(operator, { status: 'pending' as const }));
  const records = new Map<string, SessionRecords | undefined>();
  const holds: TriageHold[] = [];
  let unattended = 0;
  for (const hold of pending) {
    if (!records.has(hold.sessionId)) {
      const session = await visibleStoreSession(store, operator, hold.sessionId);
      records.set(hold.sessionId, session && (await readSessionRecords(store, session)));
    }
    const sessionRecords = records.get(hold.sessionId);
    if (sessionRecords === undefined) continue;
    if (pendingHoldState(hold, at) !== 'waiting') unattended += 1;
    else holds.push(triageHold(hold, sessionRecords, at, recentCalls));
  }
  return { holds, unattended };
}
