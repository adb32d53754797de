import type { PendingHoldState } from '../model/hold-state.js';
import type { AuditEntry } from '../model/novarch-store.js';
import type {
  ActionRecord,
  EvidenceRecord,
  HoldRecord,
  SessionRecord,
  VerdictRecord,
} from '../model/records.js';
import type { RulesCalibrationReport } from '../rules/calibrate/calibrate-rules.js';

/**
 * What an operator token grants: a tenant (every team of it), one team of a tenant, or every
 * tenant (`tenantId: '*'`). The same shape as the identity module's `Grant`.
 */
export interface OperatorGrant {
  tenantId: string;
  /** Absent: every team of the tenant. */
  teamId?: string;
}

/**
 * The operator behind a verified operator token, as the console sees it (an `OperatorPrincipal`
 * of the identity module fits). Never the token itself: the console keeps this, not the token,
 * in its server-side session.
 */
export interface ConsoleOperator {
  /** Stable id of the token (or its owner), used to re-check it on each request. */
  id: string;
  /** The name decisions and kills are stored under (`decidedBy`, `operator NAME: reason`). */
  name: string;
  role: 'operator' | 'admin';
  grants: readonly OperatorGrant[];
  /** Approver groups it is in (a rule's `approvers:`); absent: none. */
  groups?: readonly string[];
  /** Agent keys whose sessions' holds it may not decide (separation of duties); absent: none. */
  notForKeys?: readonly string[];
}

/** A pending (or just decided) hold with everything an operator needs to decide it. */
export interface TriageHold {
  hold: HoldRecord;
  /** For a pending hold: whether an agent still waits on it. */
  state?: PendingHoldState;
  session: SessionRecord;
  action?: ActionRecord;
  /** The verdict that held the action, with its citations. */
  verdict?: VerdictRecord;
  /** The evidence the verdict cites, in citation order. */
  citedEvidence: EvidenceRecord[];
  /** The session's latest calls (reads and writes), newest last. */
  recentCalls: TimelineEntry[];
}

/** One event of a session's timeline. */
export type TimelineEntry =
  | { type: 'read'; at: string; evidence: EvidenceRecord }
  | { type: 'write'; at: string; action: ActionRecord; verdicts: VerdictRecord[]; hold?: HoldRecord }
  | { type: 'kill'; at: string; session: SessionRecord };

/** How a session looks in the sessions list. */
/** Which sessions the sessions page lists. */
export interface SessionListQuery {
  /** 1-based (default 1; past the last page: the last). */
  page?: number;
  /** Only sessions whose id, tenant, team or agent contains this text (any case). */
  search?: string;
}

/** A page of sessions and where it is among all that match. */
export interface SessionPage {
  sessions: SessionSummary[];
  /** How many sessions match, on every page. */
  total: number;
  page: number;
  pages: number;
}

export interface SessionSummary {
  session: SessionRecord;
  /**
   * `live`: not killed, with a call in the last `LIVE_WINDOW_MS`, or a hold someone waits on;
   * `stopped`: a pending hold of it is abandoned or expired (its agent no longer waits: the write
   * will not run), as Triage, the audit and its page say.
   */
  status: 'live' | 'idle' | 'stopped' | 'killed';
  lastActivityAt: string;
  calls: number;
  pendingHolds: number;
}

/** A session with its timeline, oldest first. */
export interface SessionTimeline {
  session: SessionRecord;
  entries: TimelineEntry[];
}

/** An operator's decision on a hold, as the console posts it. */
export interface ConsoleDecision {
  holdId: string;
  status: 'approved' | 'denied' | 'skipped';
  rationale?: string;
  /** Approve with edit: the tool input the write runs with (re-judged by the agent's gate). */
  input?: Record<string, unknown>;
}

/**
 * What deciding a hold did: `decided` when this operator's decision was stored; otherwise the hold
 * as it is (another operator or the deadline was first) with a sentence that says so.
 */
export type DecisionOutcome =
  | { outcome: 'decided'; hold: HoldRecord }
  | { outcome: 'refused'; hold: HoldRecord; message: string };

/** What a kill did: `killed`, or `refused` (already killed) with why. */
export type KillOutcome =
  | { outcome: 'killed'; session: SessionRecord }
  | { outcome: 'refused'; session: SessionRecord; message: string };

/** Filters of the console's audit search (all optional). */
export interface AuditSearch {
  tenantId?: string;
  teamId?: string;
  agentId?: string;
  sessionId?: string;
  verdict?: 'pass' | 'kill' | 'hold';
  ruleId?: string;
  /** Inclusive bounds on the action's time (ISO instants). */
  from?: string;
  to?: string;
  /** Only the most recent N matching entries (default: all of them). */
  limit?: number;
}

/** A webhook delivery, as the console shows failures (STORE's `listWebhookDeliveries`). */
export interface WebhookDeliveryView {
  id: string;
  tenantId: string;
  holdId?: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastAttemptAt?: string;
  /** The last error or HTTP status, as stored. */
  lastError?: string;
}

/**
 * Everything the console needs from the server, scoped to an operator. Every method that takes an
 * operator returns only what that operator's grants cover: an id of another tenant is `undefined`
 * (the routes answer 404, never 403, so ids of other tenants cannot be probed).
 * `storeConsoleDeps` implements it over a `NovarchStore`.
 */
export interface ConsoleDeps {
  /** The operator of a token; `undefined` for an unknown, revoked or non-operator token. */
  verifyOperatorToken(token: string): Promise<ConsoleOperator | undefined>;
  /**
   * The operator again, by id, on each request of a signed-in session (a revoked token ends its
   * console sessions at once). Without it a session lasts until it expires or signs out.
   */
  findOperator?(operatorId: string): Promise<ConsoleOperator | undefined>;
  /** Pending holds an agent still waits on, oldest first, and how many nobody waits on. */
  listTriage(operator: ConsoleOperator): Promise<{ holds: TriageHold[]; unattended: number }>;
  getHold(operator: ConsoleOperator, holdId: string): Promise<TriageHold | undefined>;
  /** `undefined` when the hold is not the operator's to see (404). */
  decideHold(operator: ConsoleOperator, decision: ConsoleDecision): Promise<DecisionOutcome | undefined>;
  /** One page of the operator's sessions, most recent first, matching `query.search` if given. */
  listSessions(operator: ConsoleOperator, query?: SessionListQuery): Promise<SessionPage>;
  getSessionTimeline(operator: ConsoleOperator, sessionId: string): Promise<SessionTimeline | undefined>;
  killSession(
    operator: ConsoleOperator,
    kill: { sessionId: string; reason: string },
  ): Promise<KillOutcome | undefined>;
  searchAudit(operator: ConsoleOperator, search: AuditSearch): Promise<AuditEntry[]>;
  /**
   * Calls `listener` whenever something may have changed (a hold created or decided, a session
   * killed), so live pages look at once instead of at their next poll. Returns the unsubscribe.
   */
  subscribeChanges?(listener: () => void): () => void;
  /**
   * Webhook deliveries that failed, for the operator's tenants. Absent: the deployment has no
   * webhooks (the page says so).
   */
  listWebhookFailures?(operator: ConsoleOperator): Promise<WebhookDeliveryView[]>;
  /**
   * `novarch rules calibrate` for each team with rules pushed to the server that the operator
   * sees: its latest rules measured against the operators' decided holds. Absent: the deployment
   * keeps no pushed rules (the page says so).
   */
  calibrateRules?(operator: ConsoleOperator): Promise<TeamCalibration[]>;
}

/** One team's rules calibration, or why it could not be measured. */
export type TeamCalibration =
  | { tenantId: string; teamId: string; version: number | null; report: RulesCalibrationReport }
  | { tenantId: string; teamId: string; version: number | null; error: string };
