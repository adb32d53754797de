import type { SessionScope } from '../model/records.js';
import type { ConsoleOperator } from './console-deps.js';

/** The grant of every tenant (as the identity module writes it). */
export const ALL_TENANTS_GRANT = '*';

/** Whether the operator's grants cover a session's tenant and team. */
export function operatorCovers(
  operator: ConsoleOperator,
  scope: Pick<SessionScope, 'tenantId' | 'teamId'>,
): boolean {
  return operator.grants.some(
    (grant) =>
      grant.tenantId === ALL_TENANTS_GRANT ||
      (grant.tenantId === scope.tenantId && (grant.teamId === undefined || grant.teamId === scope.teamId)),
  );
}

/** The tenants the operator has any grant in, each once; `undefined` for every tenant. */
export function grantedTenants(operator: ConsoleOperator): string[] | undefined {
  if (operator.grants.some((grant) => grant.tenantId === ALL_TENANTS_GRANT)) return undefined;
  return [...new Set(operator.grants.map((grant) => grant.tenantId))];
}

/**
 * The tenant filters to query the store with for an operator: one per granted tenant (only
 * `wanted` when given), or a single `undefined` (no tenant filter) for an every-tenant grant.
 * Results still go through `operatorCovers` for team grants.
 */
export function tenantFilters(operator: ConsoleOperator, wanted?: string): (string | undefined)[] {
  const tenants = grantedTenants(operator);
  if (tenants === undefined) return [wanted];
  return tenants.filter((tenantId) => wanted === undefined || tenantId === wanted);
}
