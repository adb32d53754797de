/** The identity tables, beside the store's own (migrated apart: `migrate-identity.ts`). */
export interface IdentityTables {
  novarch_agent_keys: AgentKeyRow;
  novarch_operator_tokens: OperatorTokenRow;
  novarch_console_sessions: ConsoleSessionRow;
}

export interface AgentKeyRow {
  /** The public part of the key (`nva_3f9c…`). */
  id: string;
  tenant_id: string;
  name: string;
  /** SHA-256 (hex) of the random part; the key itself is never stored. */
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
  /** Migration 003: the one agent the key opens sessions for (NULL: any, keys made before). */
  agent_id: string | null;
  /** Migration 003: JSON array of the teams it opens sessions in (NULL: every team). */
  team_ids: string | null;
}

export interface OperatorTokenRow {
  id: string;
  name: string;
  role: string;
  /** JSON: `[{ "tenantId": "acme", "teamId": "cs-ops" }, …]`. */
  grants: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
  /** Migration 004: JSON array of the approver groups the operator is in (NULL: none). */
  groups?: string | null;
  /** Migration 004: JSON array of agent key ids whose sessions it may not decide for (NULL: none). */
  not_for_keys?: string | null;
}

/** A signed-in console session (migration 002), shared by every server process on the store. */
export interface ConsoleSessionRow {
  /** SHA-256 (hex) of the session id the browser's cookie holds; the id itself is never stored. */
  id_hash: string;
  /** The operator token it was signed in with (`nvo_3f9c…`): revoking the token revokes it. */
  operator_id: string;
  /** JSON: the operator at sign-in, `{ "id", "name", "role", "grants" }` (re-read on each request). */
  operator: string;
  /** ISO instants, like the other identity tables. */
  created_at: string;
  last_seen_at: string;
  revoked_at: string | null;
}

/** A JSON column's value, or undefined when it is not JSON (the caller fails closed). */
export function readJsonColumn(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
