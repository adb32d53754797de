/** Who a governed session belongs to. */
export interface SessionScope {
  tenantId: string;
  teamId: string;
  agentId: string;
}

/** A governed agent session (one run of an agent under Novarch). */
export interface SessionRecord extends SessionScope {
  id: string;
  startedAt: string;
  /** Seconds an operator may take on a hold in this session (negotiated at session entry). */
  holdWaitSeconds: number;
  /** Set once the session is latched (judge kill, hold timeout/skip, operator kill). */
  killedAt?: string;
  killReason?: string;
  /**
   * Who stopped the session and on what grounds (store migration 3). Absent on sessions killed
   * before Novarch recorded it: their kill is told by its reason alone, never guessed at.
   */
  kill?: SessionKill;
}

/** Who stops a session: an operator, the judge's kill, a hold skipped or timed out, the gate itself. */
export type KillSource = 'operator' | 'judge' | 'hold_skipped' | 'hold_timed_out' | 'gate';

/** How a session was stopped, as stored with its kill. */
export interface SessionKill {
  source: KillSource;
  /** The action whose verdict stopped the session (judge kill, skipped or timed-out hold). */
  actionId?: string;
  /** The verdict's citations (rule ids, evidence ids); the rationale is the session's `killReason`. */
  ruleIds: string[];
  evidenceIds: string[];
  /** The OS account of the process that stored the kill. */
  osUser?: string;
}

/** What `NovarchStore.killSession` is told besides the reason; default an operator's kill. */
export interface KillDetails {
  source: KillSource;
  actionId?: string;
  ruleIds?: string[];
  evidenceIds?: string[];
}

/** A read that ran: what the agent saw, kept as evidence for later judgements. */
export interface EvidenceRecord {
  id: string;
  sessionId: string;
  toolName: string;
  input: unknown;
  output: unknown;
  isError: boolean;
  startedAt: string;
  finishedAt: string;
}

/** What a write is about, built from the tool input by the write's context builder. */
export interface ActionContext {
  recordId: string;
  summary: string;
  amount?: number;
  /** The unit of `amount` (a currency such as `USD`, or `items`): shown with it, and with the limit it crossed. */
  unit?: string;
  [key: string]: unknown;
}

/** A write the agent asked for, awaiting or having received a verdict. */
export interface ActionRecord {
  id: string;
  sessionId: string;
  actionType: string;
  toolName: string;
  input: unknown;
  context: ActionContext;
  /** The agent's rationale: the write tool's `reasoning` input field, else the model's text before the call (`rationaleOf`). */
  reasoning?: string;
  createdAt: string;
  /**
   * When the gate let the write run (`NovarchStore.releaseAction`), atomically with a check that
   * the session was not killed. Absent: the write did not run (refused, held, killed first).
   */
  releasedAt?: string;
}

/** Which rule set a verdict was judged by: a pushed version of a team's rules, or a file. */
export interface RuleSetReference {
  team: string;
  /** The version the store gave it (`novarch rules push`); null for rules loaded from a file or built in code. */
  version: number | null;
  /** sha256 (hex) of the rule set's canonical content (of its JSON, for a rule set built in code). */
  contentHash: string;
}

/** A rule a verdict cites, with the rule set it came from. */
export interface RuleReference {
  id: string;
  /** The rule's own `version:` field. */
  version: number;
  ruleSet: RuleSetReference;
}

/** Why a verdict was reached: the rules and evidence it rests on. */
export interface Citations {
  ruleIds: string[];
  evidenceIds: string[];
  rationale: string;
  /**
   * The rule sets of the session's team the judge applied (the engine's verdicts carry them;
   * verdicts stored before, and the gate's own refusals, do not).
   */
  ruleSets?: RuleSetReference[];
  /** Each rule of `ruleIds` with its version and rule set (same order; set by the engine). */
  rules?: RuleReference[];
  /**
   * The outcomes of the applicable rules in `mode: monitor` (shadow mode), which had no effect on
   * this verdict: what each one would have decided. Absent when no monitored rule applied.
   */
  shadow?: ShadowOutcome[];
}

/** What a monitored (shadow) rule would have decided on one action. */
export interface ShadowOutcome {
  ruleId: string;
  /** The rule's own `version:` field. */
  version: number;
  /** `pass`: satisfied; `hold`/`kill`: violated, and what enforcing it would have done. */
  decision: 'pass' | 'kill' | 'hold';
  rationale: string;
}

/**
 * The judge's verdict on an action. A tagged union that carries its citations; anything missing,
 * unknown or thrown becomes a refusal (kill or hold), never a pass.
 */
export type Verdict =
  | { kind: 'pass'; citations: Citations }
  | { kind: 'kill'; citations: Citations }
  | { kind: 'hold'; citations: Citations };

/** A verdict as stored, tied to its action. */
export interface VerdictRecord {
  id: string;
  actionId: string;
  sessionId: string;
  verdict: Verdict;
  decidedAt: string;
  /**
   * `judge` for rule verdicts; `gate` for refusals the gate made itself (an unmapped tool, a write
   * alongside other calls, a context builder that throws, a stopped session, a store failure);
   * `permissions` for a call the agent's own permission rules refused (it did not run).
   */
  source: VerdictSource;
  /** The OS account of the process that stored the verdict (absent on verdicts stored before). */
  osUser?: string;
}

/** Who reached a verdict. */
export type VerdictSource = 'judge' | 'gate' | 'permissions';

/** Current format of stored holds; every shipped version has a fixture test. */
export const HOLD_SCHEMA_VERSION = 1;

/** What an operator (or the clock) did with a hold. */
export type HoldStatus = 'pending' | 'approved' | 'denied' | 'skipped' | 'timed_out';

/** A write waiting for an operator: persisted, versioned state. */
export interface HoldRecord {
  schemaVersion: typeof HOLD_SCHEMA_VERSION;
  id: string;
  actionId: string;
  sessionId: string;
  status: HoldStatus;
  createdAt: string;
  /** When the agent stops waiting; a pending hold past it counts as timed out (fail-closed). */
  deadline: string;
  decidedAt?: string;
  decidedBy?: string;
  rationale?: string;
  /** The OS account of the process that stored the decision (absent on holds decided before). */
  decidedByOsUser?: string;
  /**
   * The process waiting on the hold, as of its last check-in (see `hold-state.ts`). Absent until
   * one checked in, and on holds stored before Novarch recorded check-ins.
   */
  waiter?: HoldWaiter;
  /**
   * Who must approve it (store migration 9), set from the held rules when the hold is made.
   * Absent: one approval by any operator who may see the session.
   */
  policy?: HoldApprovalPolicy;
  /** The approvals so far, oldest first (a hold needing more than one; absent: none yet). */
  approvals?: HoldApproval[];
  /**
   * The input an operator approved in place of the agent's (approve with edit): what runs. The
   * action keeps the agent's own input, so the audit has both.
   */
  edit?: HoldEdit;
}

/** An operator's edit of a held write's input. */
export interface HoldEdit {
  input: unknown;
  by: string;
}

/** Who must approve a hold: a quorum of distinct operators, and the groups they must be in. */
export interface HoldApprovalPolicy {
  /** Distinct operators whose approvals let the write run (the most any held rule asks; ≥ 1). */
  approvals: number;
  /** For each held rule with `approvers:`: the groups one of which every decider must be in. */
  approverGroups: HoldApproverGroups[];
}

/** The approver groups a held rule names. */
export interface HoldApproverGroups {
  ruleId: string;
  groups: string[];
}

/** One operator's approval of a hold that needs several. */
export interface HoldApproval {
  operator: string;
  at: string;
  rationale?: string;
  osUser?: string;
}

/** Who waits on a pending hold, and when it last said so. */
export interface HoldWaiter {
  /** When the waiting process last checked in (it does so every few seconds while it waits). */
  seenAt: string;
  pid: number;
  host: string;
}
