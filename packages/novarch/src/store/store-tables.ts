import type { Generated } from 'kysely';

// The tables of a Novarch store as kysely sees them. Column types are kept to what SQLite and
// PostgreSQL share (text, integer, double precision), so the queries are dialect-neutral.
// JSON values are stored as text and validated with zod when read back (see `parse-*-row.ts`).

/** `schema_migrations`: one row per applied migration. */
export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: string;
}

/** `sessions`: one governed agent session. `killed_at` is the latch; it is set once. */
export interface SessionsTable {
  seq: Generated<number>;
  id: string;
  tenant_id: string;
  team_id: string;
  agent_id: string;
  started_at: string;
  hold_wait_seconds: number;
  killed_at: string | null;
  kill_reason: string | null;
  /** Migration 3: who stopped the session (`KillSource`), on which action, citing what. */
  kill_source: string | null;
  kill_action_id: string | null;
  kill_citations_json: string | null;
  killed_by_os_user: string | null;
}

/** `evidence`: a read that ran. `input_json`/`output_json` are NULL when the value was undefined. */
export interface EvidenceTable {
  seq: Generated<number>;
  id: string;
  session_id: string;
  tool_name: string;
  input_json: string | null;
  output_json: string | null;
  /** 0 or 1 (an integer rather than a boolean, which SQLite does not have). */
  is_error: number;
  started_at: string;
  finished_at: string;
  /**
   * Migration 7: the highest `actions.seq` of the session when this row was stored (0: none), so
   * "stored before action A" is `action_seq < A.seq`, the store's order rather than a clock.
   */
  action_seq: number | null;
}

/** `actions`: a write the agent asked for. */
export interface ActionsTable {
  seq: Generated<number>;
  id: string;
  session_id: string;
  action_type: string;
  tool_name: string;
  input_json: string | null;
  context_json: string;
  reasoning: string | null;
  created_at: string;
  /** Migration 3: when the gate let the write run; NULL when it did not run. */
  released_at: string | null;
}

/** `verdicts`: the verdict on an action; `kind` is a column so the audit can filter on it. */
export interface VerdictsTable {
  seq: Generated<number>;
  id: string;
  action_id: string;
  session_id: string;
  kind: string;
  citations_json: string;
  source: string;
  decided_at: string;
  /** Migration 3: the OS account of the process that stored the verdict. */
  os_user: string | null;
}

/**
 * `holds`: a write waiting for an operator. Rows carry the hold format's `schema_version`. The
 * `waiter_*` columns (migration 2) are the last check-in of the process waiting on the hold.
 */
export interface HoldsTable {
  seq: Generated<number>;
  id: string;
  schema_version: number;
  action_id: string;
  session_id: string;
  status: string;
  created_at: string;
  deadline: string;
  decided_at: string | null;
  decided_by: string | null;
  rationale: string | null;
  waiter_seen_at: string | null;
  waiter_pid: number | null;
  waiter_host: string | null;
  /** Migration 3: the OS account of the process that stored the decision. */
  decided_by_os_user: string | null;
  /** Migration 9: JSON `HoldApprovalPolicy` (NULL: one approval by any operator). */
  policy_json?: string | null;
  /** Migration 9: JSON array of `HoldApproval` (NULL: none recorded). */
  approvals_json?: string | null;
  /** Migration 9: JSON of the input an operator edited the write's into (NULL: not edited). */
  edited_input_json?: string | null;
  /** Migration 9: the operator who edited the input. */
  edited_by?: string | null;
}

/** `rule_sets` (migration 4): one pushed version of a team's rules file. */
export interface RuleSetsTable {
  seq: Generated<number>;
  team: string;
  version: number;
  content: string;
  content_hash: string;
  pushed_at: string;
  pushed_by: string;
  pushed_by_os_user: string | null;
}

/** `webhook_deliveries` (migration 5): one webhook notification and its attempts. No secrets. */
export interface WebhookDeliveriesTable {
  seq: Generated<number>;
  id: string;
  tenant_id: string;
  event: string;
  hold_id: string | null;
  /** The receiver's origin only (see `WebhookDeliveryRecord.url`). */
  url: string;
  payload_json: string;
  status: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
}

/**
 * `session_bindings` (migration 6): which agent key opened a session over HTTP, and the SHA-256
 * of the session's secret (the secret itself is never stored). Sessions opened in process have none.
 */
export interface SessionBindingsTable {
  session_id: string;
  agent_key_id: string;
  secret_hash: string;
}

/**
 * `audit_links` (migration 11): one link of a hash chain per stored decision (see
 * `model/audit-chain.ts`), written in the decision's own transaction.
 */
export interface AuditLinksTable {
  seq: Generated<number>;
  chain: string;
  position: number;
  kind: string;
  record_id: string;
  digest: string;
  prev_hash: string;
  hash: string;
  recorded_at: string;
}

/**
 * `audit_heads` (migration 11): the last link of each chain. Its row is locked by each append, so
 * appenders of one chain (processes, server connections) take their turn and never fork it.
 */
export interface AuditHeadsTable {
  chain: string;
  position: number;
  hash: string;
}

/**
 * `history_fields` (migration 12): the fields of actions and evidence that history conditions
 * filter on, indexed (`history-field-rows.ts` says which). Written with their record.
 */
export interface HistoryFieldsTable {
  kind: 'action' | 'evidence';
  /** `actions.seq` or `evidence.seq`. */
  record_seq: number;
  /**
   * The record's place in the store's order of actions: an action's `seq`; for evidence, the
   * highest `actions.seq` of the store when it was stored. Before action A: `position < A.seq`.
   */
  position: number;
  tenant_id: string;
  agent_id: string;
  session_id: string;
  /** The action type, or the evidence's tool name. */
  type: string;
  path: string;
  value: string;
  number: number | null;
  /** When the store recorded it (an action's `created_at`). */
  created_at: string;
}

/** Migration 15: verdicts that repeated an action's verdict of the same kind, moved out of `verdicts`. */
export interface VerdictsSetAsideTable extends Omit<VerdictsTable, 'seq'> {
  seq: number | string;
  set_aside_at: string;
}

/** Migration 16: the Slack messages of a hold (`slack-message-queries.ts`). */
export interface SlackHoldMessagesTable {
  hold_id: string;
  messages_json: string | null;
  shown_rank: number;
  claimed_at: string;
}

/** Every table of a Novarch store. */
export interface StoreTables {
  schema_migrations: SchemaMigrationsTable;
  sessions: SessionsTable;
  evidence: EvidenceTable;
  actions: ActionsTable;
  verdicts: VerdictsTable;
  holds: HoldsTable;
  rule_sets: RuleSetsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  session_bindings: SessionBindingsTable;
  audit_links: AuditLinksTable;
  audit_heads: AuditHeadsTable;
  history_fields: HistoryFieldsTable;
  verdicts_set_aside: VerdictsSetAsideTable;
  slack_hold_messages: SlackHoldMessagesTable;
}
