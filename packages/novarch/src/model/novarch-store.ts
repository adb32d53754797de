import type {
  ActionRecord,
  EvidenceRecord,
  HoldRecord,
  HoldStatus,
  SessionRecord,
  SessionScope,
  VerdictRecord,
} from './records.js';

/** Filters of the audit trail (`novarch audit`). */
export interface AuditFilter {
  tenantId?: string;
  agentId?: string;
  sessionId?: string;
  verdict?: 'pass' | 'kill' | 'hold';
  limit?: number;
}

/** One line of the audit trail: an action with its verdict and, when held, its hold. */
export interface AuditEntry {
  action: ActionRecord;
  session: SessionRecord;
  verdict?: VerdictRecord;
  hold?: HoldRecord;
}

/** The process that waits on a hold, as it checks in (`NovarchStore.checkInHoldWaiter`). */
export interface HoldWaiterIdentity {
  pid: number;
  host: string;
}

/**
 * Where Novarch keeps every decision. Each write is committed before the decision takes effect,
 * so nothing is lost when a process is killed. Several processes on one machine may share a
 * store (the embedded default is one SQLite file in WAL mode).
 */
export interface NovarchStore {
  createSession(scope: SessionScope, holdWaitSeconds: number): Promise<SessionRecord>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  listSessions(filter?: { tenantId?: string; agentId?: string; killed?: boolean }): Promise<SessionRecord[]>;
  /** Latches the session; later calls keep the first reason. */
  killSession(id: string, reason: string): Promise<void>;

  recordEvidence(evidence: Omit<EvidenceRecord, 'id'>): Promise<EvidenceRecord>;
  listEvidence(sessionId: string): Promise<EvidenceRecord[]>;

  recordAction(action: Omit<ActionRecord, 'id' | 'createdAt'>): Promise<ActionRecord>;
  recordVerdict(verdict: Omit<VerdictRecord, 'id' | 'decidedAt'>): Promise<VerdictRecord>;

  createHold(actionId: string, sessionId: string, deadline: Date): Promise<HoldRecord>;
  getHold(id: string): Promise<HoldRecord | undefined>;
  listHolds(filter?: { status?: HoldStatus; sessionId?: string }): Promise<HoldRecord[]>;
  /**
   * Records that `waiter` still waits on a pending hold: its `waiter` becomes this process, seen
   * now. A hold already decided is left unchanged (no error); an unknown hold id fails. Not a
   * decision: it needs no more durability than surviving a killed process.
   */
  checkInHoldWaiter(id: string, waiter: HoldWaiterIdentity): Promise<void>;
  /**
   * Decides a pending hold exactly once (approved/denied/skipped by an operator, or timed_out).
   * Returns the hold as stored; a hold already decided is returned unchanged (first decision wins).
   */
  decideHold(
    id: string,
    status: Exclude<HoldStatus, 'pending'>,
    decidedBy: string,
    rationale?: string,
  ): Promise<HoldRecord>;

  audit(filter?: AuditFilter): Promise<AuditEntry[]>;
  close(): Promise<void>;
}
