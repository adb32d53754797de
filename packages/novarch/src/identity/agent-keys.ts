import type { Kysely } from 'kysely';
import { z } from 'zod';
import { checkName, IdentityError } from './identity-error.js';
import { AGENT_KEY_PREFIX, type Created, newSecret } from './identity-secrets.js';
import { type AgentKeyRow, type IdentityTables, readJsonColumn } from './identity-tables.js';

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

/** A new agent key: its tenant and name, and what it is bound to. */
export interface NewAgentKey {
  tenantId: string;
  name: string;
  /** The one agent the key opens sessions for (recommended; unset: any agent of the tenant). */
  agentId?: string;
  /** The teams the key opens sessions in (unset: every team of the tenant). */
  teamIds?: readonly string[];
}

const TeamIdsSchema = z.array(z.string().min(1));

export async function createAgentKey(
  db: Kysely<IdentityTables>,
  options: NewAgentKey,
): Promise<Created<AgentKeyInfo>> {
  checkName('tenant', options.tenantId);
  checkName('key name', options.name);
  if (options.agentId !== undefined && (options.agentId.trim() === '' || options.agentId.length > 200))
    throw new IdentityError(`agent "${options.agentId}" is not valid: use 1-200 characters`);
  for (const team of options.teamIds ?? []) checkName('team', team);
  if (options.teamIds !== undefined && options.teamIds.length === 0)
    throw new IdentityError('a key bound to teams needs at least one team (or none at all: every team)');
  const secret = newSecret(AGENT_KEY_PREFIX);
  const createdAt = new Date().toISOString();
  await db
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

export async function listAgentKeys(
  db: Kysely<IdentityTables>,
  filter: { tenants?: ReadonlySet<string> | undefined },
): Promise<AgentKeyInfo[]> {
  const rows = await db.selectFrom('novarch_agent_keys').selectAll().orderBy('created_at').execute();
  return rows
    .filter((row) => filter.tenants === undefined || filter.tenants.has(row.tenant_id))
    .map(toAgentKeyInfo);
}

/** The agent key of this id (revoked or not), by its primary key; undefined for an unknown id. */
export async function findAgentKey(
  db: Kysely<IdentityTables>,
  id: string,
): Promise<AgentKeyInfo | undefined> {
  const row = await agentKeyRow(db, id);
  return row && toAgentKeyInfo(row);
}

/** Revokes a key (a key revoked before keeps its first revocation); undefined for an unknown id. */
export async function revokeAgentKey(
  db: Kysely<IdentityTables>,
  id: string,
): Promise<AgentKeyInfo | undefined> {
  await db
    .updateTable('novarch_agent_keys')
    .set({ revoked_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  return findAgentKey(db, id);
}

/** The row of an agent key, by its primary key. */
export function agentKeyRow(db: Kysely<IdentityTables>, id: string): Promise<AgentKeyRow | undefined> {
  return db.selectFrom('novarch_agent_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

export function toAgentKeyInfo(row: AgentKeyRow): AgentKeyInfo {
  // Teams this code cannot read bind the key to no team at all (fail-closed), never to every one.
  const teams = row.team_ids == null ? undefined : TeamIdsSchema.safeParse(readJsonColumn(row.team_ids));
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
