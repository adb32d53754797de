import type {
  ActionProposal,
  ActionRecord,
  ActionRelease,
  AuditEntry,
  AuditFilter,
  CallRefusal,
  EvidenceRecord,
  HoldRecord,
  HoldStatus,
  HoldWaiterIdentity,
  KillDetails,
  NovarchStore,
  ReleaseResult,
  SessionBinding,
  SessionRecord,
  SessionScope,
  VerdictRecord,
} from '../../../../src/index.js';

/** The store methods a test can make reject. */
export type FaultableMethod = Exclude<keyof NovarchStore, 'close'>;

/** The error an injected fault rejects with. */
export class InjectedStoreFault extends Error {
  override name = 'InjectedStoreFault';
}

/**
 * A NovarchStore that delegates to a real one and rejects the calls a test names, to show that
 * every failure of the store refuses (fail-closed) and never lets a write through. Calls are
 * counted per method from 0, so a test can fail "the 2nd getHold" exactly.
 */
export class FaultyStore implements NovarchStore {
  private readonly counts = new Map<FaultableMethod, number>();
  private readonly faults = new Map<FaultableMethod, Set<number> | 'always'>();

  constructor(readonly inner: NovarchStore) {}

  /** Makes the `nth` call (0-based, counted since the store was wrapped) reject; without `nth`, every call. */
  fail(method: FaultableMethod, nth?: number): this {
    if (nth === undefined) {
      this.faults.set(method, 'always');
      return this;
    }
    const current = this.faults.get(method);
    if (current === 'always') return this;
    this.faults.set(method, new Set([...(current ?? []), nth]));
    return this;
  }

  /** Stops injecting faults (into one method, or all). */
  heal(method?: FaultableMethod): void {
    if (method === undefined) this.faults.clear();
    else this.faults.delete(method);
  }

  /** How many times `method` was called. */
  callsOf(method: FaultableMethod): number {
    return this.counts.get(method) ?? 0;
  }

  protected async guard<T>(method: FaultableMethod, work: () => Promise<T>): Promise<T> {
    const call = this.callsOf(method);
    this.counts.set(method, call + 1);
    const fault = this.faults.get(method);
    if (fault === 'always' || fault?.has(call)) throw new InjectedStoreFault(`injected ${method} failure`);
    return work();
  }

  createSession(
    scope: SessionScope,
    holdWaitSeconds: number,
    binding?: SessionBinding,
  ): Promise<SessionRecord> {
    return this.guard('createSession', () => this.inner.createSession(scope, holdWaitSeconds, binding));
  }
  getSessionBinding(id: string): Promise<SessionBinding | undefined> {
    return this.guard('getSessionBinding', () => this.inner.getSessionBinding(id));
  }
  getSession(id: string): Promise<SessionRecord | undefined> {
    return this.guard('getSession', () => this.inner.getSession(id));
  }
  listSessions(filter?: { tenantId?: string; agentId?: string; killed?: boolean }): Promise<SessionRecord[]> {
    return this.guard('listSessions', () => this.inner.listSessions(filter));
  }
  killSession(id: string, reason: string, details?: KillDetails): Promise<void> {
    return this.guard('killSession', () => this.inner.killSession(id, reason, details));
  }
  recordEvidence(evidence: Omit<EvidenceRecord, 'id'>): Promise<EvidenceRecord> {
    return this.guard('recordEvidence', () => this.inner.recordEvidence(evidence));
  }
  listEvidence(sessionId: string): Promise<EvidenceRecord[]> {
    return this.guard('listEvidence', () => this.inner.listEvidence(sessionId));
  }
  recordAction(action: Omit<ActionRecord, 'id' | 'createdAt'>): Promise<ActionRecord> {
    return this.guard('recordAction', () => this.inner.recordAction(action));
  }
  proposeAction(action: Omit<ActionRecord, 'id' | 'createdAt' | 'releasedAt'>): Promise<ActionProposal> {
    return this.guard('proposeAction', () => this.inner.proposeAction(action));
  }
  recordVerdict(verdict: Omit<VerdictRecord, 'id' | 'decidedAt' | 'osUser'>): Promise<VerdictRecord> {
    return this.guard('recordVerdict', () => this.inner.recordVerdict(verdict));
  }
  releaseAction(release: ActionRelease): Promise<ReleaseResult> {
    return this.guard('releaseAction', () => this.inner.releaseAction(release));
  }
  recordRefusal(refusal: CallRefusal): Promise<{ action: ActionRecord; verdict: VerdictRecord }> {
    return this.guard('recordRefusal', () => this.inner.recordRefusal(refusal));
  }
  createHold(actionId: string, sessionId: string, deadline: Date): Promise<HoldRecord> {
    return this.guard('createHold', () => this.inner.createHold(actionId, sessionId, deadline));
  }
  getHold(id: string): Promise<HoldRecord | undefined> {
    return this.guard('getHold', () => this.inner.getHold(id));
  }
  listHolds(filter?: { status?: HoldStatus; sessionId?: string }): Promise<HoldRecord[]> {
    return this.guard('listHolds', () => this.inner.listHolds(filter));
  }
  checkInHoldWaiter(id: string, waiter: HoldWaiterIdentity): Promise<void> {
    return this.guard('checkInHoldWaiter', () => this.inner.checkInHoldWaiter(id, waiter));
  }
  decideHold(
    id: string,
    status: Exclude<HoldStatus, 'pending'>,
    decidedBy: string,
    rationale?: string,
  ): Promise<HoldRecord> {
    return this.guard('decideHold', () => this.inner.decideHold(id, status, decidedBy, rationale));
  }
  audit(filter?: AuditFilter): Promise<AuditEntry[]> {
    return this.guard('audit', () => this.inner.audit(filter));
  }
  /** Closing the wrapper leaves the real store open: its owner closes it. */
  async close(): Promise<void> {}
}
