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
import type { AgentKeyRow, ConsoleSessionRow, IdentityTables, OperatorTokenRow } from './identity-tables.js';
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
  /** The one agent it opens sessions for (absent: any agent of its tenant). */
  agentId?: string;
  /** The teams it opens sessions in (absent: every team of its tenant). */
  teamIds?: string[];
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

/**
 * A console session as stored (the console's `ConsoleSessionRecords` port): its id only as a
 * SHA-256 hash, the operator at sign-in as JSON, times in ms since the epoch.
 */
export interface ConsoleSessionRecord {
  /** SHA-256 (hex) of the session id. */
  idHash: string;
  /** The operator token it was signed in with. */
  operatorId: string;
  /** The operator at sign-in, as JSON (the console's `ConsoleOperator`). */
  operator: string;
  createdAt: number;
  lastSeenAt: number;
  /** Its operator token was revoked (then the session is refused, never reactivated). */
  revoked: boolean;
}

/** A name, tenant or grant that cannot be stored, with what to write instead. */
export class IdentityError extends NovarchError {
  override name = 'IdentityError';
}

const GrantSchema = z.object({ tenantId: z.string().min(1), teamId: z.string().min(1).optional() });
const GrantsSchema = z.array(GrantSchema);
const RoleSchema = z.enum(OPERATOR_ROLES);
const TeamIdsSchema = z.array(z.string().min(1));

/** A new agent key: its tenant and name, and what it is bound to. */
export interface NewAgentKey {
  tenantId: string;
  name: string;
  /** The one agent the key opens sessions for (recommended; unset: any agent of the tenant). */
  agentId?: string;
  /** The teams the key opens sessions in (unset: every team of the tenant). */
  teamIds?: readonly string[];
}

/**
 * Agent keys and operator tokens, in the identity tables of the server's database. Secrets are
 * generated here, returned once by `create…`, and kept only as SHA-256 hashes.
 */
export class IdentityStore {
  constructor(
    private readonly db: Kysely<IdentityTables>,
    private readonly closeDatabase: () => Promise<void>,
  ) {}

  async createAgentKey(options: NewAgentKey): Promise<Created<AgentKeyInfo>> {
    checkName('tenant', options.tenantId);
    checkName('key name', options.name);
    if (options.agentId !== undefined && (options.agentId.trim() === '' || options.agentId.length > 200))
      throw new IdentityError(`agent "${options.agentId}" is not valid: use 1-200 characters`);
    for (const team of options.teamIds ?? []) checkName('team', team);
    if (options.teamIds !== undefined && options.teamIds.length === 0)
      throw new IdentityError('a key bound to teams needs at least one team (or none at all: every team)');
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
        agent_id: options.agentId ?? null,
        team_ids: options.teamIds === undefined ? null : JSON.stringify(options.teamIds),
      })
      .execute();
    return {
      info: {
        id: secret.id,
        tenantId: options.tenantId,
        name: options.name,
        ...(options.agentId === undefined ? {} : { agentId: options.agentId }),
        ...(options.teamIds === undefined ? {} : { teamIds: [...options.teamIds] }),
        createdAt,
      },
      secret: secret.text,
    };
  }

  async listAgentKeys(filter: { tenants?: ReadonlySet<string> | undefined } = {}): Promise<AgentKeyInfo[]> {
    const rows = await this.db.selectFrom('novarch_agent_keys').selectAll().orderBy('created_at').execute();
    return rows
      .filter((row) => filter.tenants === undefined || filter.tenants.has(row.tenant_id))
      .map(toAgentKeyInfo);
  }

  /** The agent key of this id (revoked or not), by its primary key; undefined for an unknown id. */
  async findAgentKey(id: string): Promise<AgentKeyInfo | undefined> {
    const row = await this.#agentKeyRow(id);
    return row && toAgentKeyInfo(row);
  }

  /** Revokes a key (a key revoked before keeps its first revocation); undefined for an unknown id. */
  async revokeAgentKey(id: string): Promise<AgentKeyInfo | undefined> {
    await this.db
      .updateTable('novarch_agent_keys')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    return this.findAgentKey(id);
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

  /**
   * The operator token of this id (revoked or not: see `revokedAt`), by its primary key, so the
   * cost of a lookup does not grow with the number of tokens; undefined for an unknown id.
   */
  async findOperatorToken(id: string): Promise<OperatorTokenInfo | undefined> {
    const row = await this.#operatorTokenRow(id);
    return row && toOperatorInfo(row);
  }

  /** Revokes a token and the console sessions signed in with it; undefined for an unknown id. */
  async revokeOperatorToken(id: string): Promise<OperatorTokenInfo | undefined> {
    const at = new Date().toISOString();
    await this.db
      .updateTable('novarch_operator_tokens')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    await this.db
      .updateTable('novarch_console_sessions')
      .set({ revoked_at: at })
      .where('operator_id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    return this.findOperatorToken(id);
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
      const row = await this.#agentKeyRow(parsed.id);
      if (!matches(parsed.secret, row)) return undefined;
      const info = toAgentKeyInfo(row);
      return {
        kind: 'agent',
        id: row.id,
        name: row.name,
        tenantId: row.tenant_id,
        ...(info.agentId === undefined ? {} : { agentId: info.agentId }),
        ...(info.teamIds === undefined ? {} : { teamIds: info.teamIds }),
      };
    }
    const row = await this.#operatorTokenRow(parsed.id);
    if (!matches(parsed.secret, row)) return undefined;
    const info = toOperatorInfo(row);
    return { kind: 'operator', id: info.id, name: info.name, role: info.role, grants: info.grants };
  }

  // Console sessions (the console's `ConsoleSessionRecords`): one row per signed-in session, so
  // sessions survive a restart and every server process on the store sees them.

  async insertConsoleSession(session: Omit<ConsoleSessionRecord, 'revoked'>): Promise<void> {
    await this.db
      .insertInto('novarch_console_sessions')
      .values({
        id_hash: session.idHash,
        operator_id: session.operatorId,
        operator: session.operator,
        created_at: iso(session.createdAt),
        last_seen_at: iso(session.lastSeenAt),
        revoked_at: null,
      })
      .execute();
  }

  async findConsoleSession(idHash: string): Promise<ConsoleSessionRecord | undefined> {
    const row = await this.db
      .selectFrom('novarch_console_sessions')
      .selectAll()
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    return row && toConsoleSessionRecord(row);
  }

  /** Moves a session's last activity forward (never back: another process may have seen it later). */
  async touchConsoleSession(idHash: string, lastSeenAt: number): Promise<void> {
    await this.db
      .updateTable('novarch_console_sessions')
      .set({ last_seen_at: iso(lastSeenAt) })
      .where('id_hash', '=', idHash)
      .where('last_seen_at', '<', iso(lastSeenAt))
      .execute();
  }

  async deleteConsoleSession(idHash: string): Promise<void> {
    await this.db.deleteFrom('novarch_console_sessions').where('id_hash', '=', idHash).execute();
  }

  /** Deletes the sessions that have ended: idle since before `lastSeenBefore`, or created before `createdBefore`. */
  async deleteEndedConsoleSessions(ends: { lastSeenBefore: number; createdBefore: number }): Promise<void> {
    await this.db
      .deleteFrom('novarch_console_sessions')
      .where((eb) =>
        eb.or([
          eb('last_seen_at', '<', iso(ends.lastSeenBefore)),
          eb('created_at', '<', iso(ends.createdBefore)),
        ]),
      )
      .execute();
  }

  #agentKeyRow(id: string): Promise<AgentKeyRow | undefined> {
    return this.db.selectFrom('novarch_agent_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  #operatorTokenRow(id: string): Promise<OperatorTokenRow | undefined> {
    return this.db.selectFrom('novarch_operator_tokens').selectAll().where('id', '=', id).executeTakeFirst();
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

/**
 * Whether the secret matches an active credential's row. An unknown id is compared against a
 * stand-in hash too, so the answer takes as long whether or not the id exists.
 */
function matches<Row extends { secret_hash: string; revoked_at: string | null }>(
  secret: string,
  row: Row | undefined,
): row is Row {
  const matched = secretMatches(secret, row?.secret_hash ?? UNKNOWN_ID_HASH);
  return row !== undefined && row.revoked_at === null && matched;
}

/** SHA-256 of the empty string: no credential's random part (43 characters) hashes to it. */
const UNKNOWN_ID_HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function toConsoleSessionRecord(row: ConsoleSessionRow): ConsoleSessionRecord {
  return {
    idHash: row.id_hash,
    operatorId: row.operator_id,
    operator: row.operator,
    createdAt: Date.parse(row.created_at),
    lastSeenAt: Date.parse(row.last_seen_at),
    revoked: row.revoked_at !== null,
  };
}

function toAgentKeyInfo(row: AgentKeyRow): AgentKeyInfo {
  // Teams this code cannot read bind the key to no team at all (fail-closed), never to every one.
  const teams = row.team_ids == null ? undefined : TeamIdsSchema.safeParse(safeJson(row.team_ids));
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    ...(row.agent_id == null ? {} : { agentId: row.agent_id }),
    ...(teams === undefined ? {} : { teamIds: teams.success ? teams.data : [] }),
    createdAt: row.created_at,
    ...(row.revoked_at === null ? {} : { revokedAt: row.revoked_at }),
  };
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
