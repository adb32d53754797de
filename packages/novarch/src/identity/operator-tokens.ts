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
  createdAt: string;
  revokedAt?: string;
}

const GrantSchema = z.object({ tenantId: z.string().min(1), teamId: z.string().min(1).optional() });
const GrantsSchema = z.array(GrantSchema);
const RoleSchema = z.enum(OPERATOR_ROLES);

export async function createOperatorToken(
  db: Kysely<IdentityTables>,
  options: {
    name: string;
    role: OperatorRole;
    grants: readonly Grant[];
  },
): Promise<Created<OperatorTokenInfo>> {
  checkName('operator name', options.name);
  if (options.grants.length === 0)
    throw new IdentityError(
      'an operator token needs at least one grant: --grant TENANT, --grant TENANT/TEAM, or --grant "*" for every tenant',
    );
  const grants = options.grants.map((grant) => ({ ...grant }));
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
    })
    .execute();
  return {
    info: { id: secret.id, name: options.name, role: options.role, grants, createdAt },
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
    createdAt: row.created_at,
    ...(row.revoked_at === null ? {} : { revokedAt: row.revoked_at }),
  };
}
