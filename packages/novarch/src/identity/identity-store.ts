import type { Kysely } from 'kysely';
import { z } from 'zod';
import { NovarchError } from '../errors.js';
import {
  AGENT_KEY_PREFIX,
  newSecret,
  OPERATOR_TOKEN_PREFIX,
  parseSecret,
  secretMatches,
} from './identity-secrets.js';
import type { IdentityTables, OperatorTokenRow } from './identity-tables.js';
import {
  ALL_TENANTS,
  type Grant,
  isIdentityName,
  OPERATOR_ROLES,
  type OperatorRole,
  type Principal,
} from './principal.js';

/** An agent key as listed (never its secret). */
export interface AgentKeyInfo {
  id: string;
  tenantId: string;
  name: string;
  createdAt: string;
  revokedAt?: string;
}

/** An operator token as listed (never its secret). */
export interface OperatorTokenInfo {
  id: string;
  name: string;
  role: OperatorRole;
  grants: Grant[];
  createdAt: string;
  revokedAt?: string;
}

/** A credential just created: `secret` is shown once, here, and stored only as a hash. */
export interface Created<Info> {
  info: Info;
  secret: string;
}

/** A name, tenant or grant that cannot be stored, with what to write instead. */
export class IdentityError extends NovarchError {
  override name = 'IdentityError';
}

const GrantSchema = z.object({ tenantId: z.string().min(1), teamId: z.string().min(1).optional() });
const GrantsSchema = z.array(GrantSchema);
const RoleSchema = z.enum(OPERATOR_ROLES);

/**
 * Agent keys and operator tokens, in the identity tables of the server's database. Secrets are
 * generated here, returned once by `create…`, and kept only as SHA-256 hashes.
 */
export class IdentityStore {
  constructor(
    private readonly db: Kysely<IdentityTables>,
    private readonly closeDatabase: () => Promise<void>,
  ) {}

  async createAgentKey(options: { tenantId: string; name: string }): Promise<Created<AgentKeyInfo>> {
    checkName('tenant', options.tenantId);
    checkName('key name', options.name);
    const secret = newSecret(AGENT_KEY_PREFIX);
    const createdAt = new Date().toISOString();
    await this.db
      .insertInto('novarch_agent_keys')
      .values({
        id: secret.id,
        tenant_id: options.tenantId,
        name: options.name,
        secret_hash: secret.hash,
        created_at: createdAt,
        revoked_at: null,
      })
      .execute();
    return {
      info: { id: secret.id, tenantId: options.tenantId, name: options.name, createdAt },
      secret: secret.text,
    };
  }

  async listAgentKeys(filter: { tenants?: ReadonlySet<string> | undefined } = {}): Promise<AgentKeyInfo[]> {
    const rows = await this.db.selectFrom('novarch_agent_keys').selectAll().orderBy('created_at').execute();
    return rows
      .filter((row) => filter.tenants === undefined || filter.tenants.has(row.tenant_id))
      .map((row) => ({
        id: row.id,
        tenantId: row.tenant_id,
        name: row.name,
        createdAt: row.created_at,
        ...(row.revoked_at === null ? {} : { revokedAt: row.revoked_at }),
      }));
  }

  /** Revokes a key (a key revoked before keeps its first revocation); undefined for an unknown id. */
  async revokeAgentKey(id: string): Promise<AgentKeyInfo | undefined> {
    await this.db
      .updateTable('novarch_agent_keys')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    return (await this.listAgentKeys()).find((key) => key.id === id);
  }

  async createOperatorToken(options: {
    name: string;
    role: OperatorRole;
    grants: readonly Grant[];
  }): Promise<Created<OperatorTokenInfo>> {
    checkName('operator name', options.name);
    if (options.grants.length === 0)
      throw new IdentityError(
        'an operator token needs at least one grant: --grant TENANT, --grant TENANT/TEAM, or --grant "*" for every tenant',
      );
    const grants = options.grants.map((grant) => ({ ...grant }));
    const secret = newSecret(OPERATOR_TOKEN_PREFIX);
    const createdAt = new Date().toISOString();
    await this.db
      .insertInto('novarch_operator_tokens')
      .values({
        id: secret.id,
        name: options.name,
        role: options.role,
        grants: JSON.stringify(grants),
        secret_hash: secret.hash,
        created_at: createdAt,
        revoked_at: null,
      })
      .execute();
    return {
      info: { id: secret.id, name: options.name, role: options.role, grants, createdAt },
      secret: secret.text,
    };
  }

  async listOperatorTokens(): Promise<OperatorTokenInfo[]> {
    const rows = await this.db
      .selectFrom('novarch_operator_tokens')
      .selectAll()
      .orderBy('created_at')
      .execute();
    return rows.map(toOperatorInfo);
  }

  async revokeOperatorToken(id: string): Promise<OperatorTokenInfo | undefined> {
    await this.db
      .updateTable('novarch_operator_tokens')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    return (await this.listOperatorTokens()).find((token) => token.id === id);
  }

  /**
   * Who a bearer credential is: the row is found by the credential's public id, and the secret
   * compared with its hash in constant time. Unknown, malformed and revoked credentials are all
   * `undefined` (the caller answers 401 without saying which).
   */
  async authenticate(text: string): Promise<Principal | undefined> {
    const parsed = parseSecret(text);
    if (parsed === undefined) return undefined;
    if (parsed.id.startsWith(AGENT_KEY_PREFIX)) {
      const row = await this.db
        .selectFrom('novarch_agent_keys')
        .selectAll()
        .where('id', '=', parsed.id)
        .executeTakeFirst();
      if (!row || row.revoked_at !== null || !secretMatches(parsed.secret, row.secret_hash)) return undefined;
      return { kind: 'agent', id: row.id, name: row.name, tenantId: row.tenant_id };
    }
    const row = await this.db
      .selectFrom('novarch_operator_tokens')
      .selectAll()
      .where('id', '=', parsed.id)
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || !secretMatches(parsed.secret, row.secret_hash)) return undefined;
    const info = toOperatorInfo(row);
    return { kind: 'operator', id: info.id, name: info.name, role: info.role, grants: info.grants };
  }

  close(): Promise<void> {
    return this.closeDatabase();
  }
}

function checkName(what: string, value: string): void {
  if (!isIdentityName(value))
    throw new IdentityError(
      `${what} "${value}" is not valid: use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
}

function toOperatorInfo(row: OperatorTokenRow): OperatorTokenInfo {
  // A row this code cannot read grants nothing (fail-closed), rather than everything.
  const grants = GrantsSchema.safeParse(safeJson(row.grants));
  const role = RoleSchema.safeParse(row.role);
  return {
    id: row.id,
    name: row.name,
    role: role.success ? role.data : 'operator',
    grants: grants.success
      ? grants.data.map((grant) =>
          grant.teamId === undefined || grant.tenantId === ALL_TENANTS
            ? { tenantId: grant.tenantId }
            : { tenantId: grant.tenantId, teamId: grant.teamId },
        )
      : [],
    createdAt: row.created_at,
    ...(row.revoked_at === null ? {} : { revokedAt: row.revoked_at }),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
