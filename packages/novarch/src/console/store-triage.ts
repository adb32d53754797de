import { pendingHoldState } from '../model/hold-state.js';
import type { AuditEntry, NovarchStore } from '../model/novarch-store.js';
import type { EvidenceRecord, HoldRecord, SessionRecord } from '../model/records.js';
import { buildTimeline } from './build-timeline.js';
import type { TriageHold } from './console-deps.js';

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
