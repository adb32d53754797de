import type { ActionHistoryStore } from './action-history.js';
import type { AuditChainFilter, AuditChainReport, ChainedRecords } from './audit-chain.js';
import type {
  ActionRecord,
  Citations,
  EvidenceRecord,
  HoldApprovalPolicy,
  HoldRecord,
  HoldStatus,
  KillDetails,
  SessionRecord,
  SessionScope,
  Verdict,
  VerdictRecord,
  VerdictSource,
} from './records.js';
import type { AuditFilter, HoldFilter, SessionFilter } from './store-filters.js';
import type {
  RuleSetPush,
  RuleSetPushResult,
  StoredRuleSet,
  StoredRuleSetSummary,
} from './stored-rule-set.js';
import type {
  NewWebhookDelivery,
  WebhookAttempt,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
} from './webhook-delivery.js';

export type { AuditFilter, HoldFilter, SessionFilter, WithinScope } from './store-filters.js';

/** One line of the audit trail: an action with its verdict and, when held, its hold. */
export interface AuditEntry {
  action: ActionRecord;
  session: SessionRecord;
  /** The action's latest verdict (the last of `verdicts`). */
  verdict?: VerdictRecord;
  /**
   * Every verdict of the action, oldest first: e.g. the judge's pass, then the gate's `kill` when
   * a kill stored before the release stopped the write.
   */
  verdicts: VerdictRecord[];
  hold?: HoldRecord;
}

/** What an approval carries besides its operator and rationale. */
export interface HoldDecisionOptions {
  /** Approve with edit: the input the write runs with instead of the agent's (validated and re-judged by the caller). */
  input?: unknown;
}

/** The process that waits on a hold, as it checks in (`NovarchStore.checkInHoldWaiter`). */
export interface HoldWaiterIdentity {
  pid: number;
  host: string;
}

/** What `NovarchStore.releaseAction` lets run. */
export interface ActionRelease {
  actionId: string;
  sessionId: string;
  /** The judge's pass, recorded in the same transaction (one durable commit for both). */
  verdict?: Extract<Verdict, { kind: 'pass' }>;
}

/**
 * Whether the write may run: `released` once its release is durable; otherwise the session had
 * been killed first (a kill stored before the release wins), and a `gate` verdict says so.
 */
export type ReleaseResult =
  | { released: true; releasedAt: string }
  | { released: false; session: SessionRecord };

/**
 * What `NovarchStore.proposeAction` stored and read, in one transaction: the write's action and,
 * when its session is open, the session's evidence the judge rules on; when the session had been
 * killed, the action with a `gate` kill verdict saying so (nothing is judged, nothing runs).
 */
export type ActionProposal =
  | { open: true; action: ActionRecord; evidence: EvidenceRecord[] }
  | { open: false; action: ActionRecord; verdict: VerdictRecord; session: SessionRecord };

/**
 * The agent key that opened a session over HTTP, and the SHA-256 (hex) of the session's secret:
 * the server lets only that key, sending that secret, write on the session.
 */
export interface SessionBinding {
  agentKeyId: string;
  secretHash: string;
}

/** A call refused without a judge's verdict: by the gate itself, or by the agent's permission rules. */
export interface CallRefusal {
  sessionId: string;
  source: Exclude<VerdictSource, 'judge'>;
  /** An action already recorded for the call (a write whose judgement failed part way). */
  actionId?: string;
  /** Otherwise the call, recorded as an action (`actionType` the write's, or `tool_call`). */
  call?: Omit<ActionRecord, 'id' | 'createdAt' | 'sessionId' | 'releasedAt'>;
  citations: Citations;
}

/**
 * Where Novarch keeps every decision. Each write is committed before the decision takes effect,
 * so nothing is lost when a process is killed. Several processes on one machine may share a
 * store (the embedded default is one SQLite file in WAL mode).
 */
export interface NovarchStore {
  /** Opens a session; with `binding`, bound to an agent key and secret in the same transaction. */
  createSession(
    scope: SessionScope,
    holdWaitSeconds: number,
    binding?: SessionBinding,
  ): Promise<SessionRecord>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  /** The session's binding (undefined when it has none: opened in process, or before migration 6). */
  getSessionBinding(id: string): Promise<SessionBinding | undefined>;
  listSessions(filter?: SessionFilter): Promise<SessionRecord[]>;
  /**
   * Latches the session; later calls keep the first reason. `details` say who stopped it and on
   * what grounds (default: an operator); the OS account of this process is stored with it.
   */
  killSession(id: string, reason: string, details?: KillDetails): Promise<void>;

  recordEvidence(evidence: Omit<EvidenceRecord, 'id'>): Promise<EvidenceRecord>;
  listEvidence(sessionId: string): Promise<EvidenceRecord[]>;

  recordAction(action: Omit<ActionRecord, 'id' | 'createdAt'>): Promise<ActionRecord>;
  /**
   * The first step of judging a write, in one transaction (not fsynced: it lets nothing run):
   * checks that the session is not killed, records the action and lists the session's evidence.
   * A killed session's action is recorded with a `gate` kill verdict instead (`open: false`). The
   * action is stored before it is judged, so a later write's history sees it; the kill is checked
   * again when the pass takes effect (`releaseAction`).
   */
  proposeAction(action: Omit<ActionRecord, 'id' | 'createdAt' | 'releasedAt'>): Promise<ActionProposal>;
  recordVerdict(verdict: Omit<VerdictRecord, 'id' | 'decidedAt' | 'osUser'>): Promise<VerdictRecord>;
  /**
   * Lets a judged write run: in one durable transaction that holds the store's write lock, checks
   * that the session is not killed and marks the action released (recording `verdict` with it).
   * A session killed before wins: nothing is released, a `gate` verdict records why.
   */
  releaseAction(release: ActionRelease): Promise<ReleaseResult>;
  /**
   * Records a refused call (an action, when none is given, and a `kill` verdict of `source`), in
   * one transaction. Not a decision that lets anything run, so it is not fsynced on its own.
   */
  recordRefusal(refusal: CallRefusal): Promise<{ action: ActionRecord; verdict: VerdictRecord }>;

  /** A pending hold; `policy` (from the held rules) says who must approve it (default: one operator). */
  createHold(
    actionId: string,
    sessionId: string,
    deadline: Date,
    policy?: HoldApprovalPolicy,
  ): Promise<HoldRecord>;
  getHold(id: string): Promise<HoldRecord | undefined>;
  listHolds(filter?: HoldFilter): Promise<HoldRecord[]>;
  /**
   * Records that `waiter` still waits on a pending hold: its `waiter` becomes this process, seen
   * now. A hold already decided is left unchanged (no error); an unknown hold id fails. Not a
   * decision: it needs no more durability than surviving a killed process.
   */
  checkInHoldWaiter(id: string, waiter: HoldWaiterIdentity): Promise<void>;
  /**
   * Decides a pending hold exactly once (approved/denied/skipped by an operator, or timed_out).
   * Returns the hold as stored; a hold already decided is returned unchanged (first decision wins).
   * On a hold whose policy asks several approvals, an approval is added to its `approvals` and
   * the hold stays pending until the last one needed (distinct operators; one atomic step each).
   */
  decideHold(
    id: string,
    status: Exclude<HoldStatus, 'pending'>,
    decidedBy: string,
    rationale?: string,
    options?: HoldDecisionOptions,
  ): Promise<HoldRecord>;

  audit(filter?: AuditFilter): Promise<AuditEntry[]>;
  close(): Promise<void>;
}

/** The versioned rules files of the teams (`novarch rules push|list|show|diff`). */
export interface RuleSetStore {
  /**
   * Stores a new version of a team's rules (1 for its first, then the latest + 1), atomically
   * across processes. Content equal to the team's latest version (same hash) stores nothing: that
   * version is returned with `created: false`. The caller validates the content first
   * (`pushRules` in the rules module does).
   */
  pushRuleSet(push: RuleSetPush): Promise<RuleSetPushResult>;
  /** One version of a team's rules (default: its latest); undefined when there is none. */
  getRuleSet(team: string, version?: number): Promise<StoredRuleSet | undefined>;
  /** The pushed versions, by team then version (oldest first), without their text. */
  listRuleSets(filter?: { team?: string }): Promise<StoredRuleSetSummary[]>;
}

/** Webhook deliveries and their attempts (the notifier writes them; the console reads failures). */
export interface WebhookDeliveryStore {
  /** Records a webhook notification to deliver: pending, due now, no attempt made yet. */
  recordWebhookDelivery(delivery: NewWebhookDelivery): Promise<WebhookDeliveryRecord>;
  /** Records one delivery attempt's outcome (attempts + 1) and returns the delivery as stored. */
  recordWebhookAttempt(id: string, attempt: WebhookAttempt): Promise<WebhookDeliveryRecord>;
  /** A tenant's webhook deliveries in creation order (the console shows the failed ones). */
  listWebhookDeliveries(tenantId: string, filter?: WebhookDeliveryFilter): Promise<WebhookDeliveryRecord[]>;
  /** Every pending delivery of every tenant, oldest first: what a notifier resumes after a restart. */
  listPendingWebhookDeliveries(): Promise<WebhookDeliveryRecord[]>;
}

/** A Slack message that shows a hold: where it was posted, and its id there. */
export interface SlackMessageRef {
  channel: string;
  ts: string;
}

/**
 * Which Slack messages show which hold, kept in the store so that a restarted server, or another
 * server of the same store, can update them (`server/slack-approvals.ts`). Each hold is posted by
 * one server, and each state of a hold shown once: both are claimed in one statement.
 */
export interface SlackMessageStore {
  /** True for the one caller that may post hold `holdId`; false once anyone claimed it. */
  claimSlackPost(holdId: string): Promise<boolean>;
  /** The messages the claiming caller posted, showing the hold at state `shownRank`. */
  recordSlackMessages(holdId: string, messages: readonly SlackMessageRef[], shownRank: number): Promise<void>;
  /**
   * The messages to update so they show the hold at state `rank` (higher: later), for the one
   * caller that claims it; undefined when they already show it (or a later state), or none exist.
   */
  claimSlackUpdate(holdId: string, rank: number): Promise<SlackMessageRef[] | undefined>;
}

/**
 * A store over a database, as `openSqliteStore` and `openPostgresStore` return it: the governance
 * records, the teams' versioned rules and the webhook deliveries. Code that only governs calls
 * takes a `NovarchStore`; a wrapper (a tenant-scoped view, a fault injector) need not implement the rest.
 */
export interface NovarchDatabaseStore
  extends NovarchStore,
    RuleSetStore,
    WebhookDeliveryStore,
    ReplayEvidenceStore,
    AuditChainStore,
    ActionHistoryStore,
    SlackMessageStore {}

/** The hash chains over the stored decisions (`novarch audit verify`, `novarch audit export`). */
export interface AuditChainStore {
  /**
   * Checks the chains `filter` names (every chain without one) against the database: an edited,
   * deleted, inserted or reordered record or link is reported, one problem each.
   */
  verifyAuditChains(filter?: AuditChainFilter): Promise<AuditChainReport[]>;
  /** The chains `filter` names (every chain without one). */
  listAuditChains(filter?: AuditChainFilter): Promise<string[]>;
  /** A chain's links, oldest first, with each record's content as stored now (for an export). */
  readAuditChain(chain: string): Promise<ChainedRecords>;
}

/** What a replay of recorded decisions reads beyond the audit (`rules test`). */
export interface ReplayEvidenceStore {
  /**
   * The evidence of action `actionId`'s session that was stored before the action, in the store's
   * own order (a sequence, not the agent's or any process's clock), oldest first: what the judge
   * of that action saw. Fails when no action has that id.
   */
  listEvidenceBefore(actionId: string): Promise<EvidenceRecord[]>;
}
