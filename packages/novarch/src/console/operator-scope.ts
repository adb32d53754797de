import type { WithinScope } from '../model/novarch-store.js';
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
 * The operator's grants as the store's `within` (undefined for an every-tenant grant), so a
 * listing reads only the rows of the operator's tenants and teams, never every tenant's.
 */
export function operatorWithin(operator: ConsoleOperator): WithinScope[] | undefined {
  if (operator.grants.some((grant) => grant.tenantId === ALL_TENANTS_GRANT)) return undefined;
  return operator.grants.map((grant) =>
    grant.teamId === undefined
      ? { tenantId: grant.tenantId }
      : { tenantId: grant.tenantId, teamId: grant.teamId },
  );
}

/** `filter`, reading only the operator's tenants and teams. */
export function withinOperator<F extends object>(
  operator: ConsoleOperator,
  filter: F,
): F & { within?: WithinScope[] } {
  const scopes = operatorWithin(operator);
  return scopes === undefined ? filter : { ...filter, within: scopes };
}
