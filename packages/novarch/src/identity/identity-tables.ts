/** The identity tables, beside the store's own (migrated apart: `migrate-identity.ts`). */
export interface IdentityTables {
  novarch_agent_keys: AgentKeyRow;
  novarch_operator_tokens: OperatorTokenRow;
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
}
