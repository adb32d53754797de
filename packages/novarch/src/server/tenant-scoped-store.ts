import { mayAccess, type Principal } from '../identity/principal.js';
import type {
  ActionRelease,
  AuditEntry,
  AuditFilter,
  CallRefusal,
  HoldWaiterIdentity,
  NovarchStore,
  ReleaseResult,
} from '../model/novarch-store.js';
import type {
  ActionRecord,
  EvidenceRecord,
  HoldRecord,
  HoldStatus,
  KillDetails,
  SessionRecord,
  SessionScope,
  VerdictRecord,
} from '../model/records.js';
import { notFound, ProblemError } from './problem-error.js';
import { SessionScopeCache } from './session-scope-cache.js';

/**
 * The store as one credential sees it: every read returns only sessions (and their evidence,
 * actions, holds and audit) of the tenants and teams the credential may access, and every write
 * on anything else fails as not found (404, the answer an unknown id gets too: another tenant's
 * ids are not confirmed to exist). Every route works on this, never on the raw store, so the
 * operations shared with the CLI (deciding, killing, listing) are scoped without knowing it.
 */
export class TenantScopedStore implements NovarchStore {
  constructor(
    private readonly store: NovarchStore,
    readonly principal: Principal,
    /**
     * The server's memory of sessions' tenants and teams. A session's scope never changes, so the
     * scope checks of writes to it (evidence, an action, its verdict and release) need not read the
     * session again; reads of the session itself (its kill) always go to the store.
     */
    private readonly scopes = new SessionScopeCache(),
  ) {}

  async createSession(scope: SessionScope, holdWaitSeconds: number): Promise<SessionRecord> {
    if (!mayAccess(this.principal, scope))
      throw new ProblemError(
        403,
        'Forbidden',
        `this credential may not open sessions of tenant "${scope.tenantId}" team "${scope.teamId}"`,
      );
    const session = await this.store.createSession(scope, holdWaitSeconds);
    this.scopes.remember(session.id, session);
    return session;
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    const session = await this.store.getSession(id);
    if (session !== undefined) this.scopes.remember(session.id, session);
    return session !== undefined && mayAccess(this.principal, session) ? session : undefined;
  }

  /** The session, or a 404 problem when this credential may not see it. */
  async requireSession(id: string): Promise<SessionRecord> {
    const session = await this.getSession(id);
    if (session === undefined) throw notFound('session', id);
    return session;
  }

  /** A 404 problem unless this credential may see the session (its scope, not its current state). */
  async #requireVisible(id: string): Promise<void> {
    const scope = this.scopes.get(id);
    if (scope === undefined) await this.requireSession(id);
    else if (!mayAccess(this.principal, scope)) throw notFound('session', id);
  }

  async listSessions(filter?: {
    tenantId?: string;
    agentId?: string;
    killed?: boolean;
  }): Promise<SessionRecord[]> {
    return (await this.store.listSessions(filter)).filter((session) => mayAccess(this.principal, session));
  }

  async killSession(id: string, reason: string, details?: KillDetails): Promise<void> {
    await this.#requireVisible(id);
    return this.store.killSession(id, reason, details);
  }

  async recordEvidence(evidence: Omit<EvidenceRecord, 'id'>): Promise<EvidenceRecord> {
    await this.#requireVisible(evidence.sessionId);
    return this.store.recordEvidence(evidence);
  }

  async listEvidence(sessionId: string): Promise<EvidenceRecord[]> {
    await this.#requireVisible(sessionId);
    return this.store.listEvidence(sessionId);
  }

  async recordAction(action: Omit<ActionRecord, 'id' | 'createdAt'>): Promise<ActionRecord> {
    await this.#requireVisible(action.sessionId);
    return this.store.recordAction(action);
  }

  async recordVerdict(verdict: Omit<VerdictRecord, 'id' | 'decidedAt' | 'osUser'>): Promise<VerdictRecord> {
    await this.#requireVisible(verdict.sessionId);
    return this.store.recordVerdict(verdict);
  }

  async releaseAction(release: ActionRelease): Promise<ReleaseResult> {
    await this.#requireVisible(release.sessionId);
    return this.store.releaseAction(release);
  }

  async recordRefusal(refusal: CallRefusal): Promise<{ action: ActionRecord; verdict: VerdictRecord }> {
    await this.#requireVisible(refusal.sessionId);
    return this.store.recordRefusal(refusal);
  }

  async createHold(actionId: string, sessionId: string, deadline: Date): Promise<HoldRecord> {
    await this.#requireVisible(sessionId);
    return this.store.createHold(actionId, sessionId, deadline);
  }

  async getHold(id: string): Promise<HoldRecord | undefined> {
    const hold = await this.store.getHold(id);
    if (hold === undefined) return undefined;
    return (await this.getSession(hold.sessionId)) === undefined ? undefined : hold;
  }

  /** The hold, or a 404 problem when this credential may not see it. */
  async requireHold(id: string): Promise<HoldRecord> {
    const hold = await this.getHold(id);
    if (hold === undefined) throw notFound('hold', id);
    return hold;
  }

  async listHolds(filter?: { status?: HoldStatus; sessionId?: string }): Promise<HoldRecord[]> {
    const holds = await this.store.listHolds(filter);
    const visible = new Map<string, boolean>();
    const result: HoldRecord[] = [];
    for (const hold of holds) {
      let seen = visible.get(hold.sessionId);
      if (seen === undefined) {
        seen = (await this.getSession(hold.sessionId)) !== undefined;
        visible.set(hold.sessionId, seen);
      }
      if (seen) result.push(hold);
    }
    return result;
  }

  async checkInHoldWaiter(id: string, waiter: HoldWaiterIdentity): Promise<void> {
    await this.requireHold(id);
    return this.store.checkInHoldWaiter(id, waiter);
  }

  async decideHold(
    id: string,
    status: Exclude<HoldStatus, 'pending'>,
    decidedBy: string,
    rationale?: string,
  ): Promise<HoldRecord> {
    await this.requireHold(id);
    return this.store.decideHold(id, status, decidedBy, rationale);
  }

  /**
   * The audit of the sessions this credential sees. The limit applies after scoping (the N most
   * recent visible entries, oldest first), so another tenant's activity never shortens the page.
   */
  async audit(filter: AuditFilter = {}): Promise<AuditEntry[]> {
    const { limit, ...rest } = filter;
    if (rest.sessionId !== undefined && (await this.getSession(rest.sessionId)) === undefined) return [];
    const entries = (await this.store.audit(rest)).filter((entry) =>
      mayAccess(this.principal, entry.session),
    );
    return limit === undefined ? entries : entries.slice(-limit);
  }

  /** The store is the server's: closing one credential's view of it closes nothing. */
  async close(): Promise<void> {}
}
