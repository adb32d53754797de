import type { Kysely } from 'kysely';
import { z } from 'zod';
import { checkName, IdentityError } from './identity-error.js';
import { type Created, newSecret, OPERATOR_TOKEN_PREFIX } from './identity-secrets.js';
import { type IdentityTables, type OperatorTokenRow, readJsonColumn } from './identity-tables.js';
import { ALL_TENANTS, type Grant, OPERATOR_ROLES, type OperatorRole } from './principal.js';

/** An operator token as listed (never its secret). */
export interface OperatorTokenInfo {
  id: string;
  name: string;
  role: OperatorRole;
  grants: Grant[];
  /** The approver groups it is in (absent: none). */
  groups?: string[];
  /** Agent keys whose sessions it may not decide holds for (absent: none). */
  notForKeys?: string[];
  createdAt: string;
  revokedAt?: string;
}

/** A new operator token: its name, role, grants and duties. */
export interface NewOperatorToken {
  name: string;
  role: OperatorRole;
  grants: readonly Grant[];
  /** Approver groups (names like tenants: letters, digits, `.`, `_`, `-`). */
  groups?: readonly string[] | undefined;
  /** Agent key ids (`nva_…`) it may not decide for; each must be a key of the store. */
  notForKeys?: readonly string[] | undefined;
}

const GrantSchema = z.object({ tenantId: z.string().min(1), teamId: z.string().min(1).optional() });
const GrantsSchema = z.array(GrantSchema);
const RoleSchema = z.enum(OPERATOR_ROLES);
const NamesSchema = z.array(z.string().min(1));

export async function createOperatorToken(
  db: Kysely<IdentityTables>,
  options: NewOperatorToken,
): Promise<Created<OperatorTokenInfo>> {
  checkName('operator name', options.name);
  if (options.grants.length === 0)
    throw new IdentityError(
      'an operator token needs at least one grant: --grant TENANT, --grant TENANT/TEAM, or --grant "*" for every tenant',
    );
  const grants = options.grants.map((grant) => ({ ...grant }));
  const groups = unique(options.groups ?? []);
  for (const group of groups) checkName('approver group', group);
  const notForKeys = unique(options.notForKeys ?? []);
  await checkAgentKeysExist(db, notForKeys);
  const secret = newSecret(OPERATOR_TOKEN_PREFIX);
  const createdAt = new Date().toISOString();
  await db
    .insertInto('novarch_operator_tokens')
    .values({
      id: secret.id,
      name: options.name,
      role: options.role,
      grants: JSON.stringify(grants),
      secret_hash: secret.hash,
      created_at: createdAt,
      revoked_at: null,
      // Only when set: a token without duties is the row it was before migration 004.
      ...(groups.length === 0 ? {} : { groups: JSON.stringify(groups) }),
      ...(notForKeys.length === 0 ? {} : { not_for_keys: JSON.stringify(notForKeys) }),
    })
    .execute();
  return {
    info: {
      id: secret.id,
      name: options.name,
      role: options.role,
      grants,
      ...(groups.length === 0 ? {} : { groups }),
      ...(notForKeys.length === 0 ? {} : { notForKeys }),
      createdAt,
    },
    secret: secret.text,
  };
}

export async function listOperatorTokens(db: Kysely<IdentityTables>): Promise<OperatorTokenInfo[]> {
  const rows = await db.selectFrom('novarch_operator_tokens').selectAll().orderBy('created_at').execute();
  return rows.map(toOperatorInfo);
}

/**
 * The operator token of this id (revoked or not: see `revokedAt`), by its primary key, so the
 * cost of a lookup does not grow with the number of tokens; undefined for an unknown id.
 */
export async function findOperatorToken(
  db: Kysely<IdentityTables>,
  id: string,
): Promise<OperatorTokenInfo | undefined> {
  const row = await operatorTokenRow(db, id);
  return row && toOperatorInfo(row);
}

/** Revokes a token and the console sessions signed in with it; undefined for an unknown id. */
export async function revokeOperatorToken(
  db: Kysely<IdentityTables>,
  id: string,
): Promise<OperatorTokenInfo | undefined> {
  const at = new Date().toISOString();
  await db
    .updateTable('novarch_operator_tokens')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  await db
    .updateTable('novarch_console_sessions')
    .set({ revoked_at: at })
    .where('operator_id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  return findOperatorToken(db, id);
}

/** The row of an operator token, by its primary key. */
export function operatorTokenRow(
  db: Kysely<IdentityTables>,
  id: string,
): Promise<OperatorTokenRow | undefined> {
  return db.selectFrom('novarch_operator_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

export function toOperatorInfo(row: OperatorTokenRow): OperatorTokenInfo {
  // A row this code cannot read grants nothing (fail-closed), rather than everything.
  const grants = GrantsSchema.safeParse(readJsonColumn(row.grants));
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
    ...dutiesOf(row),
    createdAt: row.created_at,
    ...(row.revoked_at === null ? {} : { revokedAt: row.revoked_at }),
  };
}

/** A JSON list column: undefined when NULL, `unreadable` when it is not a list of names. */
function readNames(column: string | null | undefined): string[] | undefined | 'unreadable' {
  if (column === null || column === undefined) return undefined;
  const parsed = NamesSchema.safeParse(readJsonColumn(column));
  return parsed.success ? parsed.data : 'unreadable';
}

/**
 * The duties of a token row, fail-closed: an unreadable `groups` list is no group (it decides
 * nothing a group is needed for); an unreadable `not_for_keys` list excludes every key (`*`).
 */
function dutiesOf(row: OperatorTokenRow): { groups?: string[]; notForKeys?: string[] } {
  const groups = readNames(row.groups);
  const notForKeys = readNames(row.not_for_keys);
  return {
    ...(groups === undefined || groups === 'unreadable' || groups.length === 0 ? {} : { groups }),
    ...(notForKeys === undefined || notForKeys.length === 0
      ? {}
      : { notForKeys: notForKeys === 'unreadable' ? [ALL_KEYS] : notForKeys }),
  };
}

/** In `notForKeys`: every agent key (a row whose list could not be read). */
export const ALL_KEYS = '*';

function unique(values: readonly string[]): string[] {
  return [...new Set(values.map((value) => value.trim()))];
}

/** Every id must be an agent key of the store: a misspelt id would exclude nothing. */
async function checkAgentKeysExist(db: Kysely<IdentityTables>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db.selectFrom('novarch_agent_keys').select('id').where('id', 'in', ids).execute();
  const known = new Set(rows.map((row) => row.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new IdentityError(
      `--not-for-key ${unknown.join(', ')}: no such agent key in this store (list them with \`novarch keys list\`; pass the key's id, nva_…, not its secret)`,
    );
}
