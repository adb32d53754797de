import { OperatorUsageError } from '../errors.js';
import { isPendingHoldState, type PendingHoldState, pendingHoldState } from '../model/hold-state.js';
import type { AuditEntry, NovarchStore } from '../model/novarch-store.js';
import type {
  ActionRecord,
  EvidenceRecord,
  HoldRecord,
  HoldStatus,
  SessionRecord,
  VerdictRecord,
} from '../model/records.js';
import { unknownIdMessage } from './closest-ids.js';

/** A hold with the action it holds, as `novarch holds list` shows it. */
export interface HoldSummary {
  hold: HoldRecord;
  /** Absent only when the store lost the action (it is written before the hold). */
  action?: ActionRecord;
  /** For a pending hold: whether an agent process still waits on it (see `hold-state.ts`). */
  state?: PendingHoldState;
}

/** Everything an operator needs to decide a hold, as `novarch holds show` shows it. */
export interface HoldDetail {
  hold: HoldRecord;
  /** For a pending hold: whether an agent process still waits on it (see `hold-state.ts`). */
  state?: PendingHoldState;
  session?: SessionRecord;
  action?: ActionRecord;
  /** The action's latest verdict, with its citations. */
  verdict?: VerdictRecord;
  /** The stored evidence the verdict cites, in citation order (ids not stored are left out). */
  citedEvidence: EvidenceRecord[];
}

/** The audit entries of these sessions, by action id. */
async function entriesByAction(
  store: NovarchStore,
  sessionIds: Iterable<string>,
): Promise<Map<string, AuditEntry>> {
  const entries = new Map<string, AuditEntry>();
  for (const sessionId of new Set(sessionIds)) {
    for (const entry of await store.audit({ sessionId })) entries.set(entry.action.id, entry);
  }
  return entries;
}

/** The hold's state at `now`, as an optional field: present for pending holds only. */
function stateAt(hold: HoldRecord, now: Date): { state?: PendingHoldState } {
  const state = pendingHoldState(hold, now);
  return state === undefined ? {} : { state };
}

/**
 * Holds, oldest first, each with its action and, when pending, its state at `now`. `status` is a
 * stored status, or a pending hold's state (`abandoned`: pending holds nothing waits on).
 */
export async function listHoldSummaries(
  store: NovarchStore,
  filter: { status?: HoldStatus | PendingHoldState | undefined; sessionId?: string | undefined },
  now: Date,
): Promise<HoldSummary[]> {
  const state = isPendingHoldState(filter.status) ? filter.status : undefined;
  const status = isPendingHoldState(filter.status) ? 'pending' : filter.status;
  const holds = await store.listHolds({
    ...(status === undefined ? {} : { status }),
    ...(filter.sessionId === undefined ? {} : { sessionId: filter.sessionId }),
  });
  const entries = await entriesByAction(
    store,
    holds.map((hold) => hold.sessionId),
  );
  const summaries = holds.map((hold) => {
    const action = entries.get(hold.actionId)?.action;
    return { hold, ...(action === undefined ? {} : { action }), ...stateAt(hold, now) };
  });
  return state === undefined ? summaries : summaries.filter((summary) => summary.state === state);
}

/** The hold with this id; an unknown id is a usage error that lists the closest ids. */
export async function requireHold(store: NovarchStore, id: string, storePath: string): Promise<HoldRecord> {
  const hold = await store.getHold(id);
  if (hold !== undefined) return hold;
  const known = (await store.listHolds()).map((candidate) => candidate.id);
  throw new OperatorUsageError(unknownIdMessage('hold', id, known, storePath));
}

/** A hold (with its state at `now` when pending), its session, action, verdict and cited evidence. */
export async function loadHoldDetail(
  store: NovarchStore,
  id: string,
  storePath: string,
  now: Date,
): Promise<HoldDetail> {
  const hold = await requireHold(store, id, storePath);
  const [session, entries, evidence] = await Promise.all([
    store.getSession(hold.sessionId),
    entriesByAction(store, [hold.sessionId]),
    store.listEvidence(hold.sessionId),
  ]);
  const entry = entries.get(hold.actionId);
  const verdict = entry?.verdict;
  const byId = new Map(evidence.map((record) => [record.id, record]));
  const citedEvidence = (verdict?.verdict.citations.evidenceIds ?? []).flatMap((evidenceId) => {
    const record = byId.get(evidenceId);
    return record === undefined ? [] : [record];
  });
  return {
    hold,
    ...stateAt(hold, now),
    ...(session === undefined ? {} : { session }),
    ...(entry === undefined ? {} : { action: entry.action }),
    ...(verdict === undefined ? {} : { verdict }),
    citedEvidence,
  };
}
