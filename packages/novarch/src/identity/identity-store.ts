import type { Kysely } from 'kysely';
import {
  type AgentKeyInfo,
  agentKeyRow,
  createAgentKey,
  findAgentKey,
  listAgentKeys,
  type NewAgentKey,
  revokeAgentKey,
  toAgentKeyInfo,
} from './agent-keys.js';
import {
  type ConsoleSessionRecord,
  deleteConsoleSession,
  deleteEndedConsoleSessions,
  findConsoleSession,
  insertConsoleSession,
  touchConsoleSession,
} from './console-sessions.js';
import { AGENT_KEY_PREFIX, type Created, parseSecret, secretMatches } from './identity-secrets.js';
import type { IdentityTables } from './identity-tables.js';
import {
  createOperatorToken,
  findOperatorToken,
  listOperatorTokens,
  type NewOperatorToken,
  type OperatorTokenInfo,
  operatorTokenRow,
  revokeOperatorToken,
  toOperatorInfo,
} from './operator-tokens.js';
import type { Principal } from './principal.js';

/**
 * Agent keys (`agent-keys.ts`), operator tokens (`operator-tokens.ts`) and console sessions
 * (`console-sessions.ts`), in the identity tables of the server's database. Secrets are generated
 * there, returned once by `create…`, and kept only as SHA-256 hashes.
 */
export class IdentityStore {
  constructor(
    private readonly db: Kysely<IdentityTables>,
    private readonly closeDatabase: () => Promise<void>,
  ) {}

  createAgentKey(options: NewAgentKey): Promise<Created<AgentKeyInfo>> {
    return createAgentKey(this.db, options);
  }

  listAgentKeys(filter: { tenants?: ReadonlySet<string> | undefined } = {}): Promise<AgentKeyInfo[]> {
    return listAgentKeys(this.db, filter);
  }

  /** The agent key of this id (revoked or not), by its primary key; undefined for an unknown id. */
  findAgentKey(id: string): Promise<AgentKeyInfo | undefined> {
    return findAgentKey(this.db, id);
  }

  /** Revokes a key (a key revoked before keeps its first revocation); undefined for an unknown id. */
  revokeAgentKey(id: string): Promise<AgentKeyInfo | undefined> {
    return revokeAgentKey(this.db, id);
  }

  createOperatorToken(options: NewOperatorToken): Promise<Created<OperatorTokenInfo>> {
    return createOperatorToken(this.db, options);
  }

  listOperatorTokens(): Promise<OperatorTokenInfo[]> {
    return listOperatorTokens(this.db);
  }

  /**
   * The operator token of this id (revoked or not: see `revokedAt`), by its primary key, so the
   * cost of a lookup does not grow with the number of tokens; undefined for an unknown id.
   */
  findOperatorToken(id: string): Promise<OperatorTokenInfo | undefined> {
    return findOperatorToken(this.db, id);
  }

  /** Revokes a token and the console sessions signed in with it; undefined for an unknown id. */
  revokeOperatorToken(id: string): Promise<OperatorTokenInfo | undefined> {
    return revokeOperatorToken(this.db, id);
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
      const row = await agentKeyRow(this.db, parsed.id);
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
    const row = await operatorTokenRow(this.db, parsed.id);
    if (!matches(parsed.secret, row)) return undefined;
    const info = toOperatorInfo(row);
    return {
      kind: 'operator',
      id: info.id,
      name: info.name,
      role: info.role,
      grants: info.grants,
      ...(info.groups === undefined ? {} : { groups: info.groups }),
      ...(info.notForKeys === undefined ? {} : { notForKeys: info.notForKeys }),
    };
  }

  insertConsoleSession(session: Omit<ConsoleSessionRecord, 'revoked'>): Promise<void> {
    return insertConsoleSession(this.db, session);
  }

  findConsoleSession(idHash: string): Promise<ConsoleSessionRecord | undefined> {
    return findConsoleSession(this.db, idHash);
  }

  /** Moves a session's last activity forward (never back: another process may have seen it later). */
  touchConsoleSession(idHash: string, lastSeenAt: number): Promise<void> {
    return touchConsoleSession(this.db, idHash, lastSeenAt);
  }

  deleteConsoleSession(idHash: string): Promise<void> {
    return deleteConsoleSession(this.db, idHash);
  }

  /** Deletes the sessions that have ended: idle since before `lastSeenBefore`, or created before `createdBefore`. */
  deleteEndedConsoleSessions(ends: { lastSeenBefore: number; createdBefore: number }): Promise<void> {
    return deleteEndedConsoleSessions(this.db, ends);
  }

  close(): Promise<void> {
    return this.closeDatabase();
  }
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
