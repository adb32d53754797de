import { newSessionSecret, secretMatches } from '../identity/identity-secrets.js';
import { ALL_TENANTS, mayAccess, type Principal } from '../identity/principal.js';
import { type HistoryQuery, hasActionHistory } from '../model/action-history.js';
import type {
  ActionProposal,
  ActionRelease,
  AuditEntry,
  AuditFilter,
  CallRefusal,
  HoldDecisionOptions,
  HoldFilter,
  HoldWaiterIdentity,
  NovarchStore,
  ReleaseResult,
  SessionBinding,
  SessionFilter,
  WithinScope,
} from '../model/novarch-store.js';
import type {
  ActionRecord,
  EvidenceRecord,
  HoldApprovalPolicy,
  HoldRecord,
  HoldStatus,
  KillDetails,
  SessionRecord,
  SessionScope,
  VerdictRecord,
} from '../model/records.js';
import { SESSION_SECRET_HEADER } from '../wire/session-secret-header.js';
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
  /** The secrets of the sessions this request opened (the route returns them once). */
  readonly #issued = new Map<string, string>();
  /** The actions this request recorded: the only ones whose history it reads. */
  readonly #recordedActions = new Set<string>();

  constructor(
    private readonly store: NovarchStore,
    readonly principal: Principal,
    /**
     * The server's memory of sessions' tenants, teams and bindings. None of them changes once a
     * session is opened, so the checks of writes to it (evidence, an action, its verdict and
     * release) need not read the session again; reads of the session itself (its kill) always go
     * to the store.
     */
    private readonly scopes = new SessionScopeCache(),
    /** The session secret the request carries (`Novarch-Session-Secret`), if any. */
    private readonly sessionSecret?: string,
  ) {}

  /**
   * Opens a session. An agent key's session is bound to that key and to a new secret, stored
   * with it in one transaction: only that key, sending that secret, may write on it.
   */
  async createSession(scope: SessionScope, holdWaitSeconds: number): Promise<SessionRecord> {
    if (!mayAccess(this.principal, scope))
      throw new ProblemError(
        403,
        'Forbidden',
        `this credential may not open sessions of tenant "${scope.tenantId}" team "${scope.teamId}"`,
      );
    if (this.principal.kind !== 'agent') {
      const session = await this.store.createSession(scope, holdWaitSeconds);
      this.scopes.remember(session.id, session, null);
      return session;
    }
    const secret = newSessionSecret();
    const binding = { agentKeyId: this.principal.id, secretHash: secret.hash };
    const session = await this.store.createSession(scope, holdWaitSeconds, binding);
    this.scopes.remember(session.id, session, binding);
    this.#issued.set(session.id, secret.text);
    return session;
  }

  /** The secret of a session this request opened (undefined for any other). */
  issuedSecret(sessionId: string): string | undefined {
    return this.#issued.get(sessionId);
  }

  getSessionBinding(id: string): Promise<SessionBinding | undefined> {
    return this.store.getSessionBinding(id);
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    const session = await this.store.getSession(id);
    if (session === undefined) return undefined;
    const binding = await this.#bindingOf(session.id, session);
    return this.#sees(session, binding) ? session : undefined;
  }

  /** The session, or a 404 problem when this credential may not see it. */
  async requireSession(id: string): Promise<SessionRecord> {
    const session = await this.getSession(id);
    if (session === undefined) throw notFound('session', id);
    return session;
  }

  /** The session's binding, from the server's memory or the store (operators need none). */
  async #bindingOf(
    id: string,
    scope: Pick<SessionScope, 'tenantId' | 'teamId'>,
  ): Promise<SessionBinding | null | undefined> {
    if (this.principal.kind !== 'agent') {
      this.scopes.remember(id, scope);
      return undefined;
    }
    const known = this.scopes.get(id)?.binding;
    if (known !== undefined) return known;
    const binding = (await this.store.getSessionBinding(id)) ?? null;
    this.scopes.remember(id, scope, binding);
    return binding;
  }

  /**
   * Whether this credential sees a session: its tenant (and team) granted, and for an agent key
   * a session it opened itself (or one opened before sessions were bound to keys).
   */
  #sees(
    scope: Pick<SessionScope, 'tenantId' | 'teamId'>,
    binding: SessionBinding | null | undefined,
  ): boolean {
    if (!mayAccess(this.principal, scope)) return false;
    if (this.principal.kind !== 'agent' || binding === null || binding === undefined) return true;
    return binding.agentKeyId === this.principal.id;
  }

  /** A 404 problem unless this credential may see the session (its scope, not its current state). */
  async #requireVisible(id: string): Promise<SessionBinding | null | undefined> {
    const known = this.scopes.get(id);
    if (known === undefined) {
      await this.requireSession(id);
      return this.scopes.get(id)?.binding;
    }
    const binding = await this.#bindingOf(id, known);
    if (!this.#sees(known, binding)) throw notFound('session', id);
    return binding;
  }

  /**
   * A 404 problem unless this credential may see the session, and a 403 unless it may write on
   * it: an agent key writes on a bound session only with the session's secret, which the remote
   * engine that opened it holds (and the agent's own tools never get).
   */
  async requireWritable(id: string): Promise<void> {
    const binding = await this.#requireVisible(id);
    if (this.principal.kind !== 'agent' || binding === null || binding === undefined) return;
    if (this.sessionSecret === undefined || !secretMatches(this.sessionSecret, binding.secretHash))
      throw new ProblemError(
        403,
        'Forbidden',
        `session ${id} is written only with its own secret (the ${SESSION_SECRET_HEADER} header its remote engine sends, from the answer that opened it): nothing was stored`,
      );
  }

  /**
   * Where this credential's listings look, for the store's query (undefined: every tenant). The
   * database reads only those tenants' rows; the checks below stay as a second guard.
   */
  #within(): readonly WithinScope[] | undefined {
    if (this.principal.kind === 'agent') return [{ tenantId: this.principal.tenantId }];
    if (this.principal.grants.some((grant) => grant.tenantId === ALL_TENANTS)) return undefined;
    return this.principal.grants.map((grant) =>
      grant.teamId === undefined
        ? { tenantId: grant.tenantId }
        : { tenantId: grant.tenantId, teamId: grant.teamId },
    );
  }

  /** `filter` with this credential's scope added. */
  #scoped<F extends { within?: readonly WithinScope[] }>(filter: F): F {
    const within = this.#within();
    return within === undefined ? filter : { ...filter, within };
  }

  async listSessions(filter: SessionFilter = {}): Promise<SessionRecord[]> {
    const sessions = (await this.store.listSessions(this.#scoped(filter))).filter((session) =>
      mayAccess(this.principal, session),
    );
    if (this.principal.kind !== 'agent') return sessions;
    const visible: SessionRecord[] = [];
    for (const session of sessions)
      if (this.#sees(session, await this.#bindingOf(session.id, session))) visible.push(session);
    return visible;
  }

  async killSession(id: string, reason: string, details?: KillDetails): Promise<void> {
    await this.requireWritable(id);
    return this.store.killSession(id, reason, details);
  }

  async recordEvidence(evidence: Omit<EvidenceRecord, 'id'>): Promise<EvidenceRecord> {
    await this.requireWritable(evidence.sessionId);
    return this.store.recordEvidence(evidence);
  }

  async listEvidence(sessionId: string): Promise<EvidenceRecord[]> {
    await this.#requireVisible(sessionId);
    return this.store.listEvidence(sessionId);
  }

  async recordAction(action: Omit<ActionRecord, 'id' | 'createdAt'>): Promise<ActionRecord> {
    await this.requireWritable(action.sessionId);
    const recorded = await this.store.recordAction(action);
    this.#recordedActions.add(recorded.id);
    return recorded;
  }

  async proposeAction(
    action: Omit<ActionRecord, 'id' | 'createdAt' | 'releasedAt'>,
  ): Promise<ActionProposal> {
    await this.requireWritable(action.sessionId);
    const proposal = await this.store.proposeAction(action);
    this.#recordedActions.add(proposal.action.id);
    return proposal;
  }

  /**
   * The history of an action this request recorded (what the engine judging it asks; the query's
   * scope is that action's own session, agent or tenant). Any other action id is not found.
   */
  async queryActionHistory(actionId: string, query: HistoryQuery): Promise<number> {
    if (!this.#recordedActions.has(actionId) || !hasActionHistory(this.store))
      throw notFound('action', actionId);
    return this.store.queryActionHistory(actionId, query);
  }

  async recordVerdict(verdict: Omit<VerdictRecord, 'id' | 'decidedAt' | 'osUser'>): Promise<VerdictRecord> {
    await this.requireWritable(verdict.sessionId);
    return this.store.recordVerdict(verdict);
  }

  async releaseAction(release: ActionRelease): Promise<ReleaseResult> {
    await this.requireWritable(release.sessionId);
    return this.store.releaseAction(release);
  }

  async recordRefusal(refusal: CallRefusal): Promise<{ action: ActionRecord; verdict: VerdictRecord }> {
    await this.requireWritable(refusal.sessionId);
    return this.store.recordRefusal(refusal);
  }

  async createHold(
    actionId: string,
    sessionId: string,
    deadline: Date,
    policy?: HoldApprovalPolicy,
  ): Promise<HoldRecord> {
    await this.requireWritable(sessionId);
    return this.store.createHold(actionId, sessionId, deadline, policy);
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

  /**
   * The holds of the sessions this credential sees. The store reads only the holds of its tenants
   * (and teams); an agent key's are then narrowed to its own sessions, one binding read per session.
   */
  async listHolds(filter: HoldFilter = {}): Promise<HoldRecord[]> {
    const holds = await this.store.listHolds(this.#scoped(filter));
    if (this.principal.kind !== 'agent') return holds;
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
    const hold = await this.requireHold(id);
    await this.requireWritable(hold.sessionId);
    return this.store.checkInHoldWaiter(id, waiter);
  }

  async decideHold(
    id: string,
    status: Exclude<HoldStatus, 'pending'>,
    decidedBy: string,
    rationale?: string,
    options?: HoldDecisionOptions,
  ): Promise<HoldRecord> {
    const hold = await this.requireHold(id);
    await this.requireWritable(hold.sessionId);
    return this.store.decideHold(id, status, decidedBy, rationale, options);
  }

  /**
   * The audit of the sessions this credential sees. The limit applies after scoping (the N most
   * recent visible entries, oldest first), so another tenant's activity never shortens the page.
   */
  async audit(filter: AuditFilter = {}): Promise<AuditEntry[]> {
    if (filter.sessionId !== undefined && (await this.getSession(filter.sessionId)) === undefined) return [];
    if (this.principal.kind !== 'agent') {
      // The scope is in the query, so the store's `limit` already counts visible entries only.
      return (await this.store.audit(this.#scoped(filter))).filter((entry) =>
        mayAccess(this.principal, entry.session),
      );
    }
    const { limit, ...rest } = filter;
    const visible: AuditEntry[] = [];
    for (const entry of await this.store.audit(this.#scoped(rest)))
      if (
        mayAccess(this.principal, entry.session) &&
        this.#sees(entry.session, await this.#bindingOf(entry.session.id, entry.session))
      )
        visible.push(entry);
    return limit === undefined ? visible : visible.slice(-limit);
  }

  /** The store is the server's: closing one credential's view of it closes nothing. */
  async close(): Promise<void> {}
}
