import type { Kysely } from 'kysely';
import type { HistoryQuery } from '../model/action-history.js';
import type { AuditChainFilter, AuditChainReport, ChainedRecords } from '../model/audit-chain.js';
import type {
  ActionProposal,
  ActionRelease,
  AuditEntry,
  AuditFilter,
  CallRefusal,
  HoldDecisionOptions,
  HoldFilter,
  HoldWaiterIdentity,
  NovarchDatabaseStore,
  ReleaseResult,
  SessionBinding,
  SessionFilter,
  SlackMessageRef,
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
import type {
  RuleSetPush,
  RuleSetPushResult,
  StoredRuleSet,
  StoredRuleSetSummary,
} from '../model/stored-rule-set.js';
import type {
  NewWebhookDelivery,
  WebhookAttempt,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
} from '../model/webhook-delivery.js';
import { errorMessage } from '../support.js';
import { queryActionHistory } from './action-history-queries.js';
import { recordAction, recordRefusal, recordVerdict } from './action-queries.js';
import { decideHold } from './decide-hold.js';
import { listEvidence, listEvidenceBefore, recordEvidence } from './evidence-queries.js';
import { checkInHoldWaiter, createHold, getHold, listHolds } from './hold-queries.js';
import { NovarchStoreError } from './novarch-store-error.js';
import { osUser } from './os-user.js';
import { proposeAction } from './propose-action.js';
import { queryAudit } from './query-audit.js';
import { releaseAction } from './release-action.js';
import { getRuleSet, listRuleSets, pushRuleSet } from './rule-set-queries.js';
import {
  createSession,
  getSession,
  getSessionBinding,
  killSession,
  listSessions,
} from './session-queries.js';
import { claimSlackPost, claimSlackUpdate, recordSlackMessages } from './slack-message-queries.js';
import type { StoreDialect } from './store-dialect.js';
import type { StoreTables } from './store-tables.js';
import type { StoredValuePolicy } from './stored-value-policy.js';
import { listAuditChains, readChainedRecords, verifyAuditChain } from './verify-audit-chain.js';
import {
  listPendingWebhookDeliveries,
  listWebhookDeliveries,
  recordWebhookAttempt,
  recordWebhookDelivery,
} from './webhook-delivery-queries.js';

/** How a `KyselyNovarchStore` guards its operations (the SQLite store sets them all). */
export interface KyselyStoreGuards {
  /** Throws when the store's location is no longer the store that was opened (deleted, replaced). */
  verifyLocation?: () => void;
  /** Redacts and bounds tool inputs and outputs before storage. */
  storedValue?: StoredValuePolicy;
  /** How long an operation may wait for another connection's lock, in ms, before it fails. */
  lockWaitMs?: number;
  /** Runs when the store closes, before its connection does (the SQLite store's checkpointer). */
  beforeClose?: () => Promise<void>;
  /** The reason a database error gives, for messages (the PostgreSQL store masks its password). */
  describeError?: (error: unknown) => string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const identity: StoredValuePolicy = (value) => value;

/**
 * `NovarchStore` over kysely, in queries every supported dialect runs alike: the SQLite store
 * (`open-sqlite-store.ts`) and the PostgreSQL store (`open-postgres-store.ts`) only differ in how
 * they connect and lock.
 * Each method is one statement (or one transaction), committed before it resolves: the queries are
 * in `*-queries.ts` (sessions, evidence, actions and verdicts, holds, rule sets, webhook
 * deliveries), `release-action.ts`, `decide-hold.ts` and `query-audit.ts`; this class runs each one
 * on the connection, with the lock wait, the location check and the error wording.
 */
export class KyselyNovarchStore implements NovarchDatabaseStore {
  readonly #db: Kysely<StoreTables>;
  readonly #dialect: StoreDialect;
  readonly #location: string;
  readonly #guards: KyselyStoreGuards;
  readonly #storedValue: StoredValuePolicy;
  #closed = false;

  constructor(
    db: Kysely<StoreTables>,
    dialect: StoreDialect,
    location: string,
    guards: KyselyStoreGuards = {},
  ) {
    this.#db = db;
    this.#dialect = dialect;
    this.#location = location;
    this.#guards = guards;
    this.#storedValue = guards.storedValue ?? identity;
  }

  /**
   * Runs one store operation; anything but a `NovarchStoreError` is wrapped in one that names it.
   * Each operation is one statement or one transaction, so one that found another connection
   * holding the write lock changed nothing: it is run again after a short sleep (the event loop
   * goes on meanwhile) until `lockWaitMs` has passed, then it fails (and the gate refuses).
   */
  async #run<T>(operation: string, work: (db: Kysely<StoreTables>) => Promise<T>): Promise<T> {
    if (this.#closed) {
      throw new NovarchStoreError(`Cannot ${operation}: the Novarch store at ${this.#location} is closed.`);
    }
    const started = Date.now();
    const lockWaitMs = this.#guards.lockWaitMs ?? 0;
    for (let attempt = 0; ; attempt++) {
      try {
        this.#guards.verifyLocation?.();
        return await work(this.#db);
      } catch (error) {
        if (error instanceof NovarchStoreError) throw error;
        const waited = Date.now() - started;
        if (this.#dialect.isLockBusy(error) && waited < lockWaitMs) {
          // Exponential with jitter (2, 4, … 64 ms), so waiting processes do not retry in step.
          const backoff = Math.min(64, 2 ** (attempt + 1)) * (0.5 + Math.random() / 2);
          await sleep(Math.min(backoff, lockWaitMs - waited));
          continue;
        }
        const reason = this.#guards.describeError?.(error) ?? errorMessage(error);
        const busy = this.#dialect.isLockBusy(error)
          ? ` (another process held the store's write lock for more than ${lockWaitMs} ms)`
          : '';
        throw new NovarchStoreError(
          `Cannot ${operation} in the Novarch store at ${this.#location}: ${reason}${busy}`,
          { cause: error },
        );
      }
    }
  }

  /** Like `#run`, for the write of a decision: durable once it resolves, even across a power loss. */
  /** One transaction, too: the decision and its audit link (`audit-chain-queries.ts`) commit together. */
  #decide<T>(operation: string, work: (db: Kysely<StoreTables>) => Promise<T>): Promise<T> {
    return this.#run(operation, (db) => this.#dialect.transaction(db, work, { durable: true }));
  }

  createSession(
    scope: SessionScope,
    holdWaitSeconds: number,
    binding?: SessionBinding,
  ): Promise<SessionRecord> {
    return this.#run('create a session', (db) =>
      createSession(db, this.#dialect, scope, holdWaitSeconds, binding),
    );
  }

  getSessionBinding(id: string): Promise<SessionBinding | undefined> {
    return this.#run(`read the binding of session ${id}`, (db) => getSessionBinding(db, id));
  }

  getSession(id: string): Promise<SessionRecord | undefined> {
    return this.#run(`read session ${id}`, (db) => getSession(db, id));
  }

  listSessions(filter: SessionFilter = {}): Promise<SessionRecord[]> {
    return this.#run('list sessions', (db) => listSessions(db, filter));
  }

  killSession(id: string, reason: string, details: KillDetails = { source: 'operator' }): Promise<void> {
    return this.#decide(`kill session ${id}`, (db) => killSession(db, id, reason, details));
  }

  recordEvidence(evidence: Omit<EvidenceRecord, 'id'>): Promise<EvidenceRecord> {
    return this.#run(`record evidence for session ${evidence.sessionId}`, (db) =>
      this.#dialect.transaction(db, (transaction) =>
        recordEvidence(transaction, this.#storedValue, evidence),
      ),
    );
  }

  listEvidence(sessionId: string): Promise<EvidenceRecord[]> {
    return this.#run(`list evidence of session ${sessionId}`, (db) => listEvidence(db, sessionId));
  }

  listEvidenceBefore(actionId: string): Promise<EvidenceRecord[]> {
    return this.#run(`list the evidence stored before action ${actionId}`, (db) =>
      listEvidenceBefore(db, actionId),
    );
  }

  queryActionHistory(actionId: string, query: HistoryQuery): Promise<number> {
    return this.#run(`read the history of action ${actionId}`, (db) =>
      queryActionHistory(db, this.#dialect, actionId, query),
    );
  }

  recordAction(action: Omit<ActionRecord, 'id' | 'createdAt'>): Promise<ActionRecord> {
    return this.#run(`record an action for session ${action.sessionId}`, (db) =>
      this.#dialect.transaction(db, (transaction) => recordAction(transaction, this.#storedValue, action)),
    );
  }

  proposeAction(action: Omit<ActionRecord, 'id' | 'createdAt' | 'releasedAt'>): Promise<ActionProposal> {
    return this.#run(`propose an action for session ${action.sessionId}`, (db) =>
      proposeAction(db, this.#dialect, this.#storedValue, action),
    );
  }

  recordVerdict(verdict: Omit<VerdictRecord, 'id' | 'decidedAt' | 'osUser'>): Promise<VerdictRecord> {
    return this.#decide(`record a verdict on action ${verdict.actionId}`, (db) => recordVerdict(db, verdict));
  }

  releaseAction(release: ActionRelease): Promise<ReleaseResult> {
    return this.#run(`let action ${release.actionId} run`, (db) => releaseAction(db, this.#dialect, release));
  }

  recordRefusal(refusal: CallRefusal): Promise<{ action: ActionRecord; verdict: VerdictRecord }> {
    return this.#run(`record a refused call of session ${refusal.sessionId}`, (db) =>
      recordRefusal(db, this.#dialect, this.#storedValue, refusal),
    );
  }

  createHold(
    actionId: string,
    sessionId: string,
    deadline: Date,
    policy?: HoldApprovalPolicy,
  ): Promise<HoldRecord> {
    return this.#decide(`hold action ${actionId}`, (db) =>
      createHold(db, actionId, sessionId, deadline, policy),
    );
  }

  getHold(id: string): Promise<HoldRecord | undefined> {
    return this.#run(`read hold ${id}`, (db) => getHold(db, id));
  }

  listHolds(filter: HoldFilter = {}): Promise<HoldRecord[]> {
    return this.#run('list holds', (db) => listHolds(db, filter));
  }

  checkInHoldWaiter(id: string, waiter: HoldWaiterIdentity): Promise<void> {
    // On #run, not #decide: a check-in is refreshed every few seconds and only has to survive a
    // killed process; an fsync each time would cost the waiting agent for nothing.
    return this.#run(`record a check-in on hold ${id}`, (db) => checkInHoldWaiter(db, id, waiter));
  }

  decideHold(
    id: string,
    status: Exclude<HoldStatus, 'pending'>,
    decidedBy: string,
    rationale?: string,
    options?: HoldDecisionOptions,
  ): Promise<HoldRecord> {
    return this.#decide(`decide hold ${id}`, (db) =>
      decideHold(db, { id, status, decidedBy, rationale, osUser: osUser(), ...options }),
    );
  }

  audit(filter?: AuditFilter): Promise<AuditEntry[]> {
    return this.#run('read the audit trail', (db) => queryAudit(db, filter));
  }

  verifyAuditChains(filter: AuditChainFilter = {}): Promise<AuditChainReport[]> {
    // In one snapshot: writers going on meanwhile are neither half seen nor taken for tampering.
    return this.#run('verify the audit chains', (db) =>
      this.#dialect.readSnapshot(db, async (snapshot) => {
        const reports: AuditChainReport[] = [];
        for (const chain of await listAuditChains(snapshot, filter))
          reports.push(await verifyAuditChain(snapshot, chain));
        return reports;
      }),
    );
  }

  listAuditChains(filter: AuditChainFilter = {}): Promise<string[]> {
    return this.#run('list the audit chains', (db) => listAuditChains(db, filter));
  }

  readAuditChain(chain: string): Promise<ChainedRecords> {
    return this.#run(`read the audit chain ${chain}`, (db) =>
      this.#dialect.readSnapshot(db, (snapshot) => readChainedRecords(snapshot, chain)),
    );
  }

  pushRuleSet(push: RuleSetPush): Promise<RuleSetPushResult> {
    // Under the write lock: the next version number is read and written by one pusher at a time.
    return this.#run(`push rules of team ${push.team}`, (db) =>
      this.#dialect.withWriteLock(db, (locked) => pushRuleSet(locked, push, osUser()), { durable: true }),
    );
  }

  getRuleSet(team: string, version?: number): Promise<StoredRuleSet | undefined> {
    const which = version === undefined ? 'the latest rules' : `version ${version} of the rules`;
    return this.#run(`read ${which} of team ${team}`, (db) => getRuleSet(db, team, version));
  }

  listRuleSets(filter?: { team?: string }): Promise<StoredRuleSetSummary[]> {
    return this.#run('list rule sets', (db) => listRuleSets(db, filter));
  }

  recordWebhookDelivery(delivery: NewWebhookDelivery): Promise<WebhookDeliveryRecord> {
    return this.#run(`record a webhook delivery for tenant ${delivery.tenantId}`, (db) =>
      recordWebhookDelivery(db, delivery),
    );
  }

  recordWebhookAttempt(id: string, attempt: WebhookAttempt): Promise<WebhookDeliveryRecord> {
    return this.#run(`record an attempt of webhook delivery ${id}`, (db) =>
      recordWebhookAttempt(db, id, attempt),
    );
  }

  listWebhookDeliveries(tenantId: string, filter?: WebhookDeliveryFilter): Promise<WebhookDeliveryRecord[]> {
    return this.#run(`list webhook deliveries of tenant ${tenantId}`, (db) =>
      listWebhookDeliveries(db, tenantId, filter),
    );
  }

  listPendingWebhookDeliveries(): Promise<WebhookDeliveryRecord[]> {
    return this.#run('list pending webhook deliveries', (db) => listPendingWebhookDeliveries(db));
  }

  claimSlackPost(holdId: string): Promise<boolean> {
    return this.#run(`claim the Slack post of hold ${holdId}`, (db) => claimSlackPost(db, holdId));
  }

  recordSlackMessages(
    holdId: string,
    messages: readonly SlackMessageRef[],
    shownRank: number,
  ): Promise<void> {
    return this.#run(`record the Slack messages of hold ${holdId}`, (db) =>
      recordSlackMessages(db, holdId, messages, shownRank),
    );
  }

  claimSlackUpdate(holdId: string, rank: number): Promise<SlackMessageRef[] | undefined> {
    return this.#run(`claim the Slack update of hold ${holdId}`, (db) => claimSlackUpdate(db, holdId, rank));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#guards.beforeClose?.();
    await this.#db.destroy();
  }
}
