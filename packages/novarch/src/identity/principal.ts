import type { SessionScope } from '../model/records.js';

/** What an operator token may do: `operator` decides holds and kills sessions; `admin` also manages keys and tokens. */
export const OPERATOR_ROLES = ['operator', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** A tenant (every team of it), one team of a tenant, or `*`: every tenant. */
export interface Grant {
  tenantId: string;
  teamId?: string;
}

/**
 * An agent key: it belongs to one tenant and may govern the sessions it opened, never decide.
 * A key bound to an agent (and teams) opens sessions of that agent (and those teams) only.
 */
export interface AgentPrincipal {
  kind: 'agent';
  id: string;
  name: string;
  tenantId: string;
  /** The one agent this key opens sessions for (unset: keys created before binding, any agent). */
  agentId?: string;
  /** The teams this key opens sessions in (unset: every team of its tenant). */
  teamIds?: readonly string[];
}

/** An operator token: a name (stored with every decision), a role and the tenants/teams granted. */
export interface OperatorPrincipal {
  kind: 'operator';
  id: string;
  name: string;
  role: OperatorRole;
  grants: readonly Grant[];
  /** The approver groups it is in (a rule's `approvers:` names the groups that may decide its holds). */
  groups?: readonly string[];
  /**
   * Agent keys (`nva_…`) whose sessions it may not decide holds for: the team that runs an agent
   * does not approve its own holds (separation of duties).
   */
  notForKeys?: readonly string[];
}

/** Who made a request, from its bearer credential. */
export type Principal = AgentPrincipal | OperatorPrincipal;

/** The wildcard grant: every tenant. */
export const ALL_TENANTS = '*';

/** A tenant, team or key name: 1-64 letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
export const IDENTITY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const NAME = IDENTITY_NAME;

/**
 * Parses a grant as written on the command line: `acme` (every team of tenant acme),
 * `acme/cs-ops` (one team), or `*` (every tenant). Returns the reason when it is not one.
 */
export function parseGrant(text: string): Grant | string {
  const trimmed = text.trim();
  if (trimmed === ALL_TENANTS) return { tenantId: ALL_TENANTS };
  const [tenantId, teamId, ...rest] = trimmed.split('/');
  if (
    tenantId === undefined ||
    !NAME.test(tenantId) ||
    rest.length > 0 ||
    (teamId !== undefined && !NAME.test(teamId))
  )
    return `"${text}" is not a grant: write TENANT, TENANT/TEAM or * (letters, digits, . _ -)`;
  return teamId === undefined ? { tenantId } : { tenantId, teamId };
}

/** A grant as written: `acme`, `acme/cs-ops`, `*`. */
export function formatGrant(grant: Grant): string {
  return grant.teamId === undefined ? grant.tenantId : `${grant.tenantId}/${grant.teamId}`;
}

/** Whether a tenant or team name is acceptable (agent keys' tenants, grants). */
export function isIdentityName(text: string): boolean {
  return NAME.test(text);
}

/** Whether the principal may see (and, by its role, act on) a session of this scope. */
export function mayAccess(principal: Principal, scope: Pick<SessionScope, 'tenantId' | 'teamId'>): boolean {
  if (principal.kind === 'agent') return principal.tenantId === scope.tenantId;
  return principal.grants.some(
    (grant) =>
      grant.tenantId === ALL_TENANTS ||
      (grant.tenantId === scope.tenantId && (grant.teamId === undefined || grant.teamId === scope.teamId)),
  );
}

/** The tenants a principal sees, or `undefined` for every tenant. */
export function visibleTenants(principal: Principal): ReadonlySet<string> | undefined {
  if (principal.kind === 'agent') return new Set([principal.tenantId]);
  if (principal.grants.some((grant) => grant.tenantId === ALL_TENANTS)) return undefined;
  return new Set(principal.grants.map((grant) => grant.tenantId));
}
